import Foundation

/// How `mhz serve` takes a listening socket handed to it, and hands its own to its next
/// self: systemd's socket-activation convention (`sd_listen_fds(3)`), so that one reading
/// serves both a `.socket` unit and the station's own restart on `SIGHUP`. The socket is
/// descriptor 3 (`SD_LISTEN_FDS_START`), `LISTEN_FDS` counts the sockets passed and
/// `LISTEN_PID` names the process they are for.
///
/// A restart re-executes the same command in the same process (`execve`): the socket stays
/// open throughout, so a client connecting meanwhile waits in its backlog until the new
/// station accepts, and the process keeps its id (a service manager sees one process).
/// The socket keeps its descriptor number, which `MHZ_LISTEN_FD` names when it is not 3:
/// moving it to 3 with `dup2` would close whatever 3 is while other threads (NIO's event
/// loops) may still use it until the exec.
enum SocketHandover {
    /// Where the first socket passed is: `SD_LISTEN_FDS_START`.
    static let firstDescriptor: Int32 = 3
    /// The variable naming the socket's descriptor when a restart passes one other than
    /// ``firstDescriptor``.
    static let descriptorVariable = "MHZ_LISTEN_FD"

    /// The listening socket passed to this process, if any, and the variables that said so
    /// removed (so nothing this process starts takes them for its own). A `LISTEN_PID`
    /// other than this process's id means the variables were inherited by a process they
    /// were not for: no socket. Of several sockets passed, the first is served.
    static func inherited() -> Int32? {
        let environment = ProcessInfo.processInfo.environment
        defer {
            for name in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", descriptorVariable] { unsetenv(name) }
        }
        guard let count = environment["LISTEN_FDS"].flatMap({ Int32($0) }), count >= 1,
              let pid = environment["LISTEN_PID"].flatMap({ pid_t($0) }), pid == getpid()
        else { return nil }
        guard let named = environment[descriptorVariable] else { return firstDescriptor }
        guard let descriptor = Int32(named), descriptor >= firstDescriptor else { return nil }
        return descriptor
    }

    /// The descriptors open as `mhz serve` began: what its parent handed it (standard input,
    /// output and error, a handed-over socket, a supervisor's pipe or socket that tells it of
    /// this process's end by closing). A restart is the same process, so it keeps them; only
    /// what this run opened is closed. Read once, at the command's start
    /// (``noteStartingDescriptors()``), before the station opens anything.
    static let startingDescriptors: Set<Int32> = openDescriptors()

    /// Reads ``startingDescriptors`` now, while only what the parent handed over is open.
    static func noteStartingDescriptors() { _ = startingDescriptors }

    /// Replaces the process with a new run of the same command (the executable now at the
    /// path it was started from, and the same arguments), handing it `descriptor` as its
    /// listening socket. Every descriptor this run opened but that one is closed by the
    /// exec, and those it started with are kept (``startingDescriptors``):
    /// a parent that learns of the process's end when a descriptor it handed over closes
    /// (Foundation's `Process` does) must not take a restart for an exit; `SIGINT` and `SIGTERM` get their default
    /// action back and no signal is blocked, so the new self can be stopped while it starts
    /// (`SIGHUP` stays ignored: a second reload meanwhile does not end it).
    ///
    /// - Returns: only when the exec failed: the system's reason. The descriptor is still
    ///   the caller's.
    static func reexecute(keeping descriptor: Int32) -> String {
        let executable = currentExecutable()
        let arguments = CommandLine.arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LISTEN_FDS"] = "1"
        environment["LISTEN_PID"] = String(getpid())
        environment["LISTEN_FDNAMES"] = nil
        environment[descriptorVariable] = descriptor == firstDescriptor ? nil : String(descriptor)
        markCloseOnExec(except: startingDescriptors.union([STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO]))
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) & ~FD_CLOEXEC)
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve(executable, argv, envp)
        let reason = String(cString: strerror(errno))
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        return reason
    }

    /// The path of the running executable: `/proc/self/exe`'s target, or the file now at
    /// that path when the running one was replaced (an upgrade installed meanwhile).
    private static func currentExecutable() -> String {
        let link = "/proc/self/exe"
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else { return link }
        let replaced = " (deleted)"
        if target.hasSuffix(replaced) {
            let path = String(target.dropLast(replaced.count))
            return FileManager.default.isExecutableFile(atPath: path) ? path : link
        }
        return target
    }

    /// Sets close-on-exec on every open descriptor but `kept` (NIO's sockets, the
    /// database's files and the rest are opened without it).
    private static func markCloseOnExec(except kept: Set<Int32>) {
        for descriptor in openDescriptors() where !kept.contains(descriptor) {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// The process's open descriptors, from `/proc/self/fd` (the one listing it reads is
    /// among them, closed by the time this returns); none when it cannot be read.
    private static func openDescriptors() -> Set<Int32> {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        return Set(names.compactMap { Int32($0) })
    }
}
