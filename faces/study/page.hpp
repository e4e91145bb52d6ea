#pragma once
// The study's one page (plain HTML, CSS and JavaScript, no framework): instructions, the practice
// problems with feedback, the test problems, a thank-you; the token kept in the browser's
// localStorage so a participant can stop and come back (or open <url>#<token> elsewhere).
#include <string_view>

namespace rave::study {

/// The page served at "/".
std::string_view page_html();

}  // namespace rave::study
