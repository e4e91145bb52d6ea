// The rendezvous addresses of common/local_port.hpp: a free loopback port, and this host's address
// on the route to another host.
#include "common/local_port.hpp"

#include <gtest/gtest.h>

namespace rave {
namespace {

TEST(LocalPort, IsAPortNumber) {
  const int port = free_local_port();
  EXPECT_GT(port, 0);
  EXPECT_LT(port, 65536);
}

TEST(LocalAddressTowards, LoopbackIsReachedFromLoopback) {
  EXPECT_EQ(local_address_towards("127.0.0.1"), "127.0.0.1");
  const std::string local = local_address_towards("localhost");
  EXPECT_TRUE(local == "127.0.0.1" || local == "::1") << local;
}

TEST(LocalAddressTowards, NothingForAHostThatDoesNotResolve) {
  EXPECT_EQ(local_address_towards("no-such-host.invalid"), "");
  EXPECT_EQ(local_address_towards(""), "");
}

}  // namespace
}  // namespace rave
