package io.adaptivecache.memcached;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs spymemcached's completion listeners on the client's own I/O thread, the way Lettuce
 * completes futures on its event loop: no hand-off per call. Shared by every client of a
 * template and never shut down by them (a client only shuts down an executor it created),
 * so retiring one client cannot break another.
 */
final class InlineExecutorService extends AbstractExecutorService {

    static final InlineExecutorService INSTANCE = new InlineExecutorService();

    @Override
    public void execute(Runnable command) {
        command.run();
    }

    @Override
    public void shutdown() {
    }

    @Override
    public List<Runnable> shutdownNow() {
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return false;
    }
}
