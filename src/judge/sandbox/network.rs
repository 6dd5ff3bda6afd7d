//! The network a sandboxed program has: a namespace of its own whose only interface is a
//! loopback, brought up by the keeper, so that a program may talk to itself on 127.0.0.1 and
//! reaches nothing else (neither the machine's own services nor the outside).

/// Brings the loopback interface `lo` of the calling process's network namespace up.
///
/// # Safety
///
/// Only system calls (socket, ioctl, close): callable between a fork and an exec.
pub unsafe fn loopback_up() -> bool {
    // Safety: an ioctl on a socket this function owns, with an ifreq on its stack.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        if fd < 0 {
            return false;
        }
        let mut request: libc::ifreq = std::mem::zeroed();
        for (i, b) in b"lo\0".iter().enumerate() {
            request.ifr_name[i] = *b as libc::c_char;
        }
        let mut ok = libc::ioctl(fd, libc::SIOCGIFFLAGS, &mut request) == 0;
        if ok {
            request.ifr_ifru.ifru_flags |= (libc::IFF_UP | libc::IFF_RUNNING) as libc::c_short;
            ok = libc::ioctl(fd, libc::SIOCSIFFLAGS, &request) == 0;
        }
        libc::close(fd);
        ok
    }
}
