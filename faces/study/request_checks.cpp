#include "study/request_checks.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace rave::study {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// How a URL names `address`: an IPv6 literal in brackets, an IPv4-mapped one as IPv4.
std::string url_host(std::string_view address) {
  if (address.starts_with("::ffff:") && address.find('.') != std::string_view::npos)
    address.remove_prefix(7);
  std::string out;
  const bool v6 = address.find(':') != std::string_view::npos;
  if (v6) out += '[';
  out.append(address);
  if (v6) out += ']';
  return out;
}

bool is_loopback(std::string_view address) {
  if (address.starts_with("::ffff:")) address.remove_prefix(7);
  return address.starts_with("127.") || address == "::1";
}

}  // namespace

bool host_matches(std::string_view host, std::string_view local_address, int local_port,
                  std::string_view served_host) {
  const std::string given = lower(trimmed(host));
  if (given.empty()) return false;
  std::string names[3] = {url_host(local_address), "", ""};
  if (is_loopback(local_address)) names[1] = "localhost";
  if (served_host != "0.0.0.0" && served_host != "::" && !served_host.empty())
    names[2] = lower(url_host(served_host));
  const std::string port = std::to_string(local_port);
  return std::any_of(std::begin(names), std::end(names), [&](const std::string& name) {
    const bool with_port = given.size() == name.size() + 1 + port.size() &&
                           given.starts_with(name) && given[name.size()] == ':' &&
                           given.ends_with(port);
    return !name.empty() && (with_port || (local_port == 80 && given == name));
  });
}

bool is_json_type(std::string_view content_type) {
  const std::string_view type = trimmed(content_type.substr(0, content_type.find(';')));
  return lower(type) == "application/json";
}

std::optional<std::uint64_t> parse_count(std::string_view text, std::uint64_t max) {
  std::uint64_t value = 0;
  if (text.empty() ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value > max) return std::nullopt;
  return value;
}

std::size_t utf8_characters(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

}  // namespace rave::study
