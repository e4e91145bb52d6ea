#pragma once
// The study server's HTTP layer: cpp-httplib 0.11's Server with its connections bounded
// (docs/study.md#limits). httplib parses and routes the requests; this class owns only what 0.11
// leaves open: the listening socket is bound without SO_REUSEPORT (so a port in use is refused, not
// shared with another process), each request has a deadline for its headers and body (a client
// that trickles a header line every second is cut off), an idle keep-alive connection waits in
// poll(), not in a busy loop, replies are not held back by Nagle's algorithm (TCP_NODELAY), and
// enough connections are served at once for a room of browsers (each opens up to 6).
//
//   BoundedServer http({.connections = 256});
//   http.Get("/", handler);
//   int port = http.bind_exclusive("127.0.0.1", 0);   // -1: in use, or not an address here
//   http.listen_after_bind();
#include <httplib.h>

#include <string>

#include "study/server.hpp"

namespace rave::study {

class BoundedServer : public httplib::Server {
 public:
  explicit BoundedServer(const ConnectionLimits& limits);

  /// Binds host:port (0: a free port) with SO_REUSEADDR only; returns the port, or -1 when it is in
  /// use (by any process, whatever its socket options) or not an address of this machine.
  int bind_exclusive(const std::string& host, int port);

  /// From a handler: close this connection after the reply (its body was not read, so the rest
  /// of the stream is not a request).
  static void close_after_reply();

 private:
  bool process_and_close_socket(socket_t sock) override;
  ConnectionLimits limits_;
};

}  // namespace rave::study
