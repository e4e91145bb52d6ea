#include "study/http_server.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace rave::study {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr int kBacklog = 256;  // 0.11 listens with a backlog of 5: a room's burst of connects
constexpr std::size_t kDrainBytes = 1 << 20;  // read and dropped after a refused body, at most
constexpr milliseconds kDrainTime{500};       // ... and for at most this long
constexpr milliseconds kStopCheck{100};       // how often an idle connection looks at stop()

thread_local bool close_requested = false;

// poll() for `events` on `fd` up to `timeout`; true when ready (a hang-up counts: recv says it).
bool wait_for(int fd, short events, milliseconds timeout) {
  pollfd p{fd, events, 0};
  const int ms = static_cast<int>(std::max<milliseconds::rep>(0, timeout.count()));
  int rc = 0;
  do {
    rc = ::poll(&p, 1, ms);
  } while (rc < 0 && errno == EINTR);
  return rc > 0;
}

void numeric_address(const sockaddr_storage& address, socklen_t length, std::string& ip,
                     int& port) {
  std::array<char, NI_MAXHOST> host{};
  std::array<char, NI_MAXSERV> service{};
  if (::getnameinfo(reinterpret_cast<const sockaddr*>(&address), length, host.data(), host.size(),
                    service.data(), service.size(), NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
    ip = host.data();
    port = std::atoi(service.data());
  }
}

// One connection's bytes for httplib's request parser: reads buffered (the parser reads a byte at
// a time), kept across the requests of a keep-alive connection, each request bounded by a deadline
// for its headers and body and every wait by the silence limit.
class ConnectionStream final : public httplib::Stream {
 public:
  ConnectionStream(int fd, const ConnectionLimits& limits) : fd_(fd), limits_(limits) {}

  // Waits (up to the idle limit, or until the server stops) for the next request's first byte and
  // starts its deadline; false when none comes.
  bool next_request(const std::atomic<socket_t>& listening) {
    const auto end = Clock::now() + limits_.idle;
    while (offset_ == size_) {
      const auto left = std::chrono::duration_cast<milliseconds>(end - Clock::now());
      if (listening == INVALID_SOCKET || left.count() <= 0) return false;
      if (wait_for(fd_, POLLIN, std::min(left, kStopCheck))) break;
    }
    deadline_ = Clock::now() + limits_.request;
    return true;
  }

  bool is_readable() const override {
    if (offset_ < size_) return true;
    const auto left = std::chrono::duration_cast<milliseconds>(deadline_ - Clock::now());
    if (left.count() > 0 && wait_for(fd_, POLLIN, std::min(left, limits_.silence))) return true;
    expired_ = true;
    return false;
  }
  // Whether a read ran out of time (the request's deadline, or a silence): the connection ends.
  bool expired() const { return expired_; }
  bool is_writable() const override { return wait_for(fd_, POLLOUT, limits_.silence); }

  ssize_t read(char* ptr, size_t size) override {
    if (offset_ == size_) {
      if (!is_readable()) return -1;
      ssize_t n = 0;
      do {
        n = ::recv(fd_, buffer_.data(), buffer_.size(), 0);
      } while (n < 0 && errno == EINTR);
      if (n <= 0) return n;
      offset_ = 0;
      size_ = static_cast<std::size_t>(n);
    }
    const std::size_t n = std::min(size, size_ - offset_);
    std::memcpy(ptr, buffer_.data() + offset_, n);
    offset_ += n;
    return static_cast<ssize_t>(n);
  }

  using httplib::Stream::write;
  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    ssize_t n = 0;
    do {
      n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0)
      numeric_address(address, length, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0)
      numeric_address(address, length, ip, port);
  }
  socket_t socket() const override { return fd_; }

 private:
  int fd_;
  ConnectionLimits limits_;
  Clock::time_point deadline_{};
  mutable bool expired_ = false;
  std::array<char, 4096> buffer_{};
  std::size_t offset_ = 0, size_ = 0;
};

// Closes a connection whose last request's body was refused unread: the reply goes out first (a
// FIN after it), then what the client still sends is read and dropped for a moment, so that the
// close does not reset the connection before the client has read the reply.
void close_refused(int fd) {
  ::shutdown(fd, SHUT_WR);
  std::array<char, 4096> sink{};
  std::size_t dropped = 0;
  const auto end = Clock::now() + kDrainTime;
  while (dropped < kDrainBytes) {
    const auto left = std::chrono::duration_cast<milliseconds>(end - Clock::now());
    if (left.count() <= 0 || !wait_for(fd, POLLIN, left)) break;
    const ssize_t n = ::recv(fd, sink.data(), sink.size(), 0);
    if (n <= 0) break;
    dropped += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

}  // namespace

BoundedServer::BoundedServer(const ConnectionLimits& limits) : limits_(limits) {
  const std::size_t threads = limits.connections;
  new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  set_keep_alive_max_count(limits.requests_per_connection);
  set_keep_alive_timeout(
      std::max<time_t>(1, std::chrono::duration_cast<std::chrono::seconds>(limits.idle).count()));
  set_socket_options([](socket_t sock) {  // 0.11's default also sets SO_REUSEPORT: a shared port
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  set_post_routing_handler([](const httplib::Request&, httplib::Response& res) {
    if (!close_requested) return;  // the reply says what the connection does
    res.headers.erase("Keep-Alive");
    if (!res.has_header("Connection")) res.set_header("Connection", "close");
  });
}

int BoundedServer::bind_exclusive(const std::string& host, int port) {
  const int bound = port == 0 ? bind_to_any_port(host) : (bind_to_port(host, port) ? port : -1);
  if (bound >= 0) ::listen(svr_sock_, kBacklog);  // listening already: this only widens the queue
  return bound;
}

void BoundedServer::close_after_reply() { close_requested = true; }

bool BoundedServer::process_and_close_socket(socket_t sock) {
  // httplib writes a reply's head and body apart: with Nagle's algorithm the body would wait for
  // the client's delayed ACK of the head (40 ms a reply on Linux).
  int yes = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  ConnectionStream stream(sock, limits_);
  bool ok = true;
  close_requested = false;
  for (std::size_t left = limits_.requests_per_connection;
       left > 0 && stream.next_request(svr_sock_); --left) {
    bool closed = false;
    ok = process_request(stream, left == 1, closed, nullptr);
    if (!ok || closed || close_requested || stream.expired()) break;
  }
  if (close_requested) {
    close_requested = false;
    close_refused(sock);
  } else {
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
  }
  return ok;
}

}  // namespace rave::study
