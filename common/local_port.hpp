#pragma once
// Addresses for processes that meet at a rendezvous: a TCP port on the loopback interface that
// nobody listens on now (`rave train --nproc`, the distributed tests; free when asked, a process
// taking it in between is possible but rare), and the address by which this host reaches another
// one (what a rank on another machine should bind to, whatever its host name resolves to).
//
//   const int port = free_local_port();   // e.g. 41237; MASTER_PORT for the ranks
//   local_address_towards("10.0.0.1");    // e.g. "10.0.0.2", or "" without a route
#include <string>

namespace rave {

/// The kernel's choice for port 0 on 127.0.0.1; rave::Error when no socket can be bound.
int free_local_port();

/// This host's IPv4 or IPv6 address on the route to `host` (a name or an address), as the kernel
/// would pick it for a connection; "" when `host` does not resolve or no route leads there. Sends
/// nothing.
std::string local_address_towards(const std::string& host);

}  // namespace rave
