package io.adaptivecache.adaptive;

import java.util.Locale;
import java.util.Objects;

import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import org.jspecify.annotations.Nullable;

import static io.adaptivecache.adaptive.Figures.bytes;
import static io.adaptivecache.adaptive.Figures.latency;

/**
 * The default policy's rules, encoding what the source articles measured: given one counted
 * window, the strategy it calls for. Pure: no time, no history, the same window always gives the
 * same proposal; confirmation, dwell, trials and the budget are the layers around it.
 * <ul>
 * <li>POOLED loses when callers wait for a connection about as long as they use it, when waiting
 * borrowers pile up, or when every pooled connection is busy (P connections / round trip caps the
 * rate): switch to MULTI at the connection cap;</li>
 * <li>one shared connection saturates its single I/O thread under many threads: when each
 * connection carries more than {@code growAbove} calls at once, grow N toward the cap, straight to
 * the size the load needs rather than doubling step by step, so a stable phase costs at most one
 * switch;</li>
 * <li>connections that sit idle (under {@code shrinkBelow} calls each) shrink, down to SINGLE;</li>
 * <li>where each shared connection runs an I/O thread of its own (the memcached drivers), at the
 * cap, with every connection carrying more calls than the rules size connections for (halfway
 * between {@code shrinkBelow} and {@code growAbove}: 2.25 by default), half as many
 * connections are proposed ({@link DecisionReason#CONSOLIDATION}): on a host whose cores are
 * busy, one connection can serve more than two (on this project's two-core machine, with the
 * memcached server beside the client, one spymemcached connection served 1.05x to 1.15x what two
 * did at 8, 50 and 200 callers in most runs, at about a fifth less CPU per call, while behind 1 ms
 * of delay two served 1.05x to 1.15x what one did at 200 callers). Which holds is for the trial
 * to measure: the move is kept only if no slower, and the connections it gave up are not
 * proposed again at that load while it is remembered;</li>
 * <li>when the backend has blocking connections for POOLED
 * ({@link ThresholdStrategyPolicy.BlockingPool}), few callers on a short round trip move to such a
 * pool, which serves each call on its caller's thread;</li>
 * <li>with such connections, large values on a short round trip move to the blocking pool at any
 * number of callers (each caller's thread reads its own value off its own socket, rather than every
 * value passing through a shared connection's one I/O thread), and while the pool serves values
 * that are still large, callers waiting for it do not send them back to shared connections: the
 * pool is bandwidth-bound there, and the wait is the price of the bandwidth.</li>
 * </ul>
 * Why the blocking pool: at few calls in flight on a short round trip, handing every command to an
 * event-loop thread and back costs more than the I/O itself (a blocking client measured about 2x
 * at one caller thread on this project's machine); the pool is sized well above that concurrency,
 * so that the rule that leaves a saturated pool (at 90% of its size) cannot fire at the same load.
 * For large values, measured on this project's machine with 100 KiB values (80% get, 20% set) on
 * loopback, a blocking pool led every shared-connection strategy at 8, 50 and 200 callers (about
 * 1.25x at 200, 1.3x at 50, 1.75x at 8), while through a link with 1 ms of delay each way the
 * shared connections led (MULTI 5.1k calls/s against 2.5 to 3.5k for a blocking pool at 200
 * callers); at 100 bytes only the few-callers rule holds.
 */
final class ThresholdRules {

    private final ThresholdStrategyPolicy.Settings settings;
    private final ThresholdStrategyPolicy.@Nullable BlockingPool blockingPool;
    private final boolean triesFewerConnections;

    ThresholdRules(ThresholdStrategyPolicy.Settings settings, ThresholdStrategyPolicy.@Nullable BlockingPool blockingPool,
            boolean triesFewerConnections) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.blockingPool = blockingPool;
        this.triesFewerConnections = triesFewerConnections;
    }

    /** The rules, applied to one counted (undisturbed, not thin) window. */
    Proposal propose(WindowSample window) {
        return window.strategy().type() == StrategyType.POOLED ? proposeForPool(window) : proposeForShared(window);
    }

    private Proposal proposeForPool(WindowSample window) {
        StrategySpec current = window.strategy();
        int poolSize = current.pool().maxTotal();
        double useNanos = Math.max(1, window.meanLatencyNanos() - window.meanBorrowWaitNanos());
        double waitRatio = window.meanBorrowWaitNanos() / useNanos;
        String figures = String.format(Locale.ROOT, "borrow wait %.0f us vs use %.0f us (ratio %.2f), %d waiting, concurrency %.1f of %d",
                window.meanBorrowWaitNanos() / 1e3, useNanos / 1e3, waitRatio, window.waitingBorrowers(), window.concurrency(),
                poolSize);
        // Every POOLED of a policy with a blocking pool runs on blocking connections. Half the threshold to stay:
        // values near it cannot flap.
        if (this.blockingPool != null) {
            double stillLarge = this.blockingPool.largeValueBytes() / 2.0;
            if (largeValues(this.blockingPool, window, stillLarge)) {
                return Proposal.stay(current, DecisionReason.STEADY, figures + "; " + valueFigures(this.blockingPool, window,
                        "still large from", stillLarge)
                        + ": the blocking pool is bandwidth-bound here, and waiting for it is the price of the bandwidth");
            }
        }
        StrategySpec multi = StrategySpec.multi(this.settings.maxConnections(), this.settings.selector());
        if (waitRatio > this.settings.poolWaitRatio() || window.waitingBorrowers() >= poolSize) {
            return new Proposal(current, multi, DecisionReason.POOL_CONTENTION, figures);
        }
        if (window.concurrency() > poolSize * 0.9) {
            return new Proposal(current, multi, DecisionReason.POOL_SATURATED, figures);
        }
        return Proposal.stay(current, DecisionReason.STEADY, figures);
    }

    private Proposal proposeForShared(WindowSample window) {
        StrategySpec current = window.strategy();
        int cap = this.settings.maxConnections();
        int connections = current.connections();
        double perConnection = window.concurrency() / connections;
        String figures = String.format(Locale.ROOT, "concurrency %.1f over %d connections (%.2f each), p99 %.2f ms, %.0f calls/s",
                window.concurrency(), connections, perConnection, window.p99LatencyNanos() / 1e6, window.throughput());
        ThresholdStrategyPolicy.BlockingPool pool = this.blockingPool;
        if (pool != null && largeValues(pool, window, pool.largeValueBytes())) {
            return new Proposal(current, spec(pool), DecisionReason.LARGE_VALUES, figures + "; "
                    + valueFigures(pool, window, "large from", pool.largeValueBytes()));
        }
        // Grow or shrink straight to what the load needs (halfway between the two thresholds per connection): one switch a phase.
        double comfortable = (this.settings.growAbove() + this.settings.shrinkBelow()) / 2;
        if (perConnection > this.settings.growAbove() && connections < cap) {
            int needed = (int) Math.ceil(window.concurrency() / comfortable);
            return new Proposal(current, StrategySpec.multi(Math.min(cap, Math.max(connections * 2, needed)), this.settings.selector()),
                    DecisionReason.CONNECTION_SATURATED, figures);
        }
        if (pool != null && fits(pool, window)) {
            return new Proposal(current, spec(pool), DecisionReason.BLOCKING_FITS,
                    figures + String.format(Locale.ROOT, ", mean %.2f ms", window.meanLatencyNanos() / 1e6));
        }
        // At the cap, growing is over; whether all these connections pay is a question for a trial, not a rule.
        if (this.triesFewerConnections && connections > 1 && connections >= cap && perConnection > comfortable) {
            int fewer = connections / 2;
            return new Proposal(current, fewer <= 1 ? StrategySpec.single() : StrategySpec.multi(fewer, this.settings.selector()),
                    DecisionReason.CONSOLIDATION, figures);
        }
        if (connections > 1 && perConnection < this.settings.shrinkBelow()) {
            int smaller = Math.min(connections / 2, Math.max(1, (int) Math.ceil(window.concurrency() / comfortable)));
            return new Proposal(current, smaller <= 1 ? StrategySpec.single() : StrategySpec.multi(smaller, this.settings.selector()),
                    DecisionReason.CONNECTIONS_IDLE, figures);
        }
        return Proposal.stay(current, DecisionReason.STEADY, figures);
    }

    /** Few calls in flight on a short round trip. */
    private static boolean fits(ThresholdStrategyPolicy.BlockingPool pool, WindowSample window) {
        return window.concurrency() <= pool.maxConcurrency() && window.meanLatencyNanos() <= pool.maxMeanLatency().toNanos();
    }

    /** Values of at least {@code bytes} per call on a short round trip (a window without calls has neither). */
    private static boolean largeValues(ThresholdStrategyPolicy.BlockingPool pool, WindowSample window, double bytes) {
        return window.meanValueBytes() >= bytes && window.minLatencyNanos() > 0
                && window.minLatencyNanos() <= pool.maxRoundTrip().toNanos();
    }

    private static StrategySpec spec(ThresholdStrategyPolicy.BlockingPool pool) {
        return StrategySpec.pooled(new PoolSettings(pool.poolSize(), pool.poolSize(), 0, pool.maxWait()));
    }

    private static String valueFigures(ThresholdStrategyPolicy.BlockingPool pool, WindowSample window, String large, double threshold) {
        return "values of " + bytes(window.meanValueBytes()) + " per call (" + large + " " + bytes(threshold) + "), shortest call "
                + latency(window.minLatencyNanos()) + " (a short round trip up to " + latency(pool.maxRoundTrip().toNanos()) + ")";
    }
}
