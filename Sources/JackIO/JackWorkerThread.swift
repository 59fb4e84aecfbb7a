import CJack
import Glibc
import HostCore

/// Called by: control threads.
///
/// Starts a thread the way JACK starts its own process thread: through
/// `jack_client_create_thread`, realtime at the client's priority when the
/// server runs realtime (plain otherwise), so a render worker is scheduled
/// like the callback it helps. The `RenderWorkerPool.ThreadStarter` for
/// live engines.
enum JackWorkerThread {
    /// `threads - 1` realtime workers for a live engine on `client`, and
    /// their threads (for the hang watch to interrupt).
    static func pool(threads: Int, client: JackClient) throws(JackError)
        -> (pool: RenderWorkerPool, threads: [pthread_t]) {
        let started = StartedThreads()
        let starter = try starter(for: client, started: started)
        do {
            let pool = try RenderWorkerPool(threads: threads, realtime: true, startThread: starter)
            return (pool, started.threads)
        } catch let error as JackError {
            throw error
        } catch {
            throw .threadFailed(name: "fxhost render", code: -1)
        }
    }

    /// The threads a starter started, in order (the pool starts them all
    /// on the calling thread).
    final class StartedThreads {
        var threads: [pthread_t] = []
    }

    static func starter(for client: JackClient, started: StartedThreads? = nil) throws(JackError)
        -> RenderWorkerPool.ThreadStarter {
        let handle = try client.handle()
        let realtime = jack_is_realtime(handle)
        let priority = jack_client_real_time_priority(handle)
        return { name, body in
            let context = ThreadEntry.context(name: name, body: body)
            var thread = jack_native_thread_t()
            var status = jack_client_create_thread(handle, &thread, priority, realtime, ThreadEntry.routine, context)
            if status != 0 && realtime != 0 {
                // Realtime scheduling refused (no rtprio for this user): a
                // plain thread still shares the work, as the server's own
                // threads do when it cannot get realtime.
                status = jack_client_create_thread(handle, &thread, priority, 0, ThreadEntry.routine, context)
            }
            guard status == 0 else {
                ThreadEntry.release(context)
                throw JackError.threadFailed(name: name, code: status)
            }
            started?.threads.append(thread)
            return { pthread_join(thread, nil) }
        }
    }
}
