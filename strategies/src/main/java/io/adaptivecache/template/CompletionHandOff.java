package io.adaptivecache.template;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * Where the futures of a template's {@code ...Async} calls complete: on a completion executor
 * (the template's own small one, or one given to the builder), never on the driver's I/O thread
 * that completed the call, where the caller's dependent stages (and what Spring runs on them: a
 * method, then a synchronous put) would hold up every other call on the connection, or wait for
 * a reply only that thread could read. The synchronous forms never come here.
 */
final class CompletionHandOff {

    /** The most threads of a template's own completion executor. */
    private static final int MAX_THREADS = 8;

    private final Executor completions;
    private final @Nullable ExecutorService owned;

    /**
     * @param templateName names the threads of the template's own executor
     * @param given the builder's executor, or {@code null} for the template's own
     */
    CompletionHandOff(String templateName, @Nullable Executor given) {
        this.owned = given == null ? ownExecutor(templateName) : null;
        this.completions = given != null ? given : this.owned;
    }

    /**
     * The future an {@code ...Async} caller gets. A call already complete (refused input handled,
     * a failure before sending, XMemcached, which answers on the caller's thread) is handed over
     * as is: stages registered on it run on the caller's thread.
     */
    <T extends @Nullable Object> CompletableFuture<T> handOff(CompletableFuture<T> call) {
        if (call.isDone()) {
            return call;
        }
        CompletableFuture<T> handed = new CompletableFuture<>();
        call.whenComplete((result, failure) -> {
            Runnable complete = () -> {
                if (failure == null) {
                    handed.complete(result);
                }
                else {
                    handed.completeExceptionally(failure);
                }
            };
            try {
                completions.execute(complete);
            }
            catch (RejectedExecutionException ex) {
                // Our executor after close, or a caller's executor that is full: still not the I/O thread.
                ForkJoinPool.commonPool().execute(complete);
            }
        });
        return handed;
    }

    /** Ends the template's own executor once the completions queued by then have run; a given one is the caller's. */
    void shutdown() {
        if (owned != null) {
            owned.shutdown();
        }
    }

    /**
     * The template's own completion executor: a few daemon threads named after the template,
     * started on first use and ended after a minute idle, so that a template called only
     * synchronously never starts one. Its queue holds at most the calls in flight, which the
     * driver's own queue bounds.
     */
    private static ExecutorService ownExecutor(String name) {
        int threads = Math.min(MAX_THREADS, Math.max(2, Runtime.getRuntime().availableProcessors()));
        AtomicInteger created = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                runnable -> {
                    Thread thread = new Thread(runnable, "adaptive-cache-" + name + "-async-" + created.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }
}
