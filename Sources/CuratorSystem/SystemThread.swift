// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import Glibc

/// A detached POSIX thread running one closure. Foundation's `Thread` would pull
/// all of swift-corelibs-foundation (and ICU) into the static daemon binary.
/// Only `WorkerPool` starts threads with it (it is not public): work is handed to a
/// thread through a pool, a long loop being one long job.
enum SystemThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread named `name` (at most 15 bytes are shown by
    /// `ps -L` and `top -H`).
    static func detach(name: String, stackSize: Int, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        let context = Unmanaged.passRetained(Body {
            curator_name_thread(name)
            body()
        }).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let rc = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
            body.run()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw SystemError("pthread_create", path: name, errno: Errno(rc))
        }
    }
}
