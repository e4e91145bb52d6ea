#include "apps/commands.hpp"
