/* Preloaded into the arm64 test root only (make system-test), never installed on a Pi.
 *
 * qemu-user (7.2 and 10.0, linux-user/syscall.c do_sendrecvmsg_locked) answers recvmsg() on a
 * message with no iovec with 0 without asking the kernel, so a file descriptor sent with
 * SCM_RIGHTS never arrives. systemd passes a service's network namespace that way
 * (PrivateNetwork=yes): under qemu every such service fails with 225/NETWORK, "Failed to set
 * up network namespacing: Input/output error". Here such a call gets a one-byte buffer, so
 * qemu hands it to the kernel; what the caller sees is unchanged. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/uio.h>

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
    static ssize_t (*real)(int, struct msghdr *, int);
    char byte;
    struct iovec iov = { &byte, 1 };
    ssize_t n;

    if (!real)
        real = (ssize_t (*)(int, struct msghdr *, int))dlsym(RTLD_NEXT, "recvmsg");
    if (msg == NULL || msg->msg_iovlen != 0)
        return real(fd, msg, flags);
    msg->msg_iov = &iov;
    msg->msg_iovlen = 1;
    n = real(fd, msg, flags);
    msg->msg_iov = NULL;
    msg->msg_iovlen = 0;
    return n < 0 ? n : 0;
}
