#pragma once
// The checks the study server makes of a request before it reads the body (docs/study.md#limits),
// as pure functions of the request's text: whether its Host names the address the connection came
// in on (a page of another site, DNS-rebound to this address, names its own host and is refused),
// whether its Content-Type is JSON, and the numbers in its headers and path.
//
//   host_matches("127.0.0.1:8765", "127.0.0.1", 8765, "127.0.0.1")   // true
//   host_matches("evil.example:8765", "127.0.0.1", 8765, "127.0.0.1") // false
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rave::study {

/// Whether `host` (a Host header) names this server: the address the connection came in on
/// (`local_address`, IPv6 in brackets), `localhost` on a loopback address, or the name the server
/// was given (`served_host`, unless it is 0.0.0.0 or ::), each with `local_port` (or without it
/// on port 80). Names compare case-insensitively.
bool host_matches(std::string_view host, std::string_view local_address, int local_port,
                  std::string_view served_host);

/// Whether a Content-Type is application/json (parameters such as charset allowed).
bool is_json_type(std::string_view content_type);

/// A decimal count (a Content-Length, a position in a path): digits only, no sign, at most
/// `max`; nullopt otherwise.
std::optional<std::uint64_t> parse_count(std::string_view text, std::uint64_t max);

/// The number of characters (code points) of UTF-8 text.
std::size_t utf8_characters(std::string_view text);

}  // namespace rave::study
