#pragma once
// A TCP port on the loopback interface that nobody listens on now, for starting local processes
// that meet at a rendezvous (`rave train --nproc`, the distributed tests). The port is free when
// asked; a process taking it in between is possible but rare.
//
//   const int port = free_local_port();   // e.g. 41237; MASTER_PORT for the ranks
namespace rave {

/// The kernel's choice for port 0 on 127.0.0.1; rave::Error when no socket can be bound.
int free_local_port();

}  // namespace rave
