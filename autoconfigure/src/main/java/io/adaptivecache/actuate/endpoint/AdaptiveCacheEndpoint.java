package io.adaptivecache.actuate.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.adaptivecache.adaptive.AdaptiveState;
import io.adaptivecache.adaptive.Decision;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.SwitchEvent;
import io.adaptivecache.autoconfigure.AdaptiveCacheSwitchers;
import io.adaptivecache.command.DefaultCacheTemplate;
import io.adaptivecache.metrics.NodeFigures;
import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyStats;
import org.jspecify.annotations.Nullable;
import io.adaptivecache.resilience.GuardStatus;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * {@code /actuator/adaptivecache}: every template's backend, mode, live strategy, last decision
 * with its evidence, recent switches and key figures; {@code /actuator/adaptivecache/{name}} for
 * one. A POST to {@code /actuator/adaptivecache/{name}} with {@code action} = {@code pin} (and
 * {@code strategy}, optionally {@code connections}), {@code unpin} or {@code trial} controls its
 * switcher. Exposed over HTTP only when the application exposes it
 * ({@code management.endpoints.web.exposure.include=adaptivecache}); even then its access is
 * read-only by default, so the POST exists only once the application also sets
 * {@code management.endpoint.adaptivecache.access=unrestricted} (secure it, as the README shows).
 * Nothing here carries a credential: templates are described by host, port and strategy.
 */
@Endpoint(id = "adaptivecache", defaultAccess = Access.READ_ONLY)
public class AdaptiveCacheEndpoint {

    private final AdaptiveCacheSwitchers switchers;

    /**
     * Creates the endpoint.
     * @param switchers the templates' switchers
     */
    public AdaptiveCacheEndpoint(AdaptiveCacheSwitchers switchers) {
        this.switchers = switchers;
    }

    /**
     * Every template.
     * @return the templates by name
     */
    @ReadOperation
    public TemplatesDescriptor templates() {
        Map<String, TemplateDescriptor> templates = new LinkedHashMap<>();
        this.switchers.all().forEach(switcher -> templates.put(switcher.template().name(), describe(switcher)));
        return new TemplatesDescriptor(templates);
    }

    /**
     * One template.
     * @param name the template's name, such as {@code redis}
     * @return the template, or {@code null} (404) if there is none of that name
     */
    @ReadOperation
    public @Nullable TemplateDescriptor template(@Selector String name) {
        StrategySwitcher switcher = this.switchers.get(name);
        return switcher == null ? null : describe(switcher);
    }

    /**
     * Controls a template's switcher.
     * @param name the template's name
     * @param action {@code pin}, {@code unpin} or {@code trial}
     * @param strategy for pin and trial: {@code single}, {@code multi} or {@code pooled}
     * @param connections for multi: N (default: available processors); for pooled: max-total (default 8)
     * @return the template after the change, or {@code null} (404) if there is none of that name
     */
    @WriteOperation
    public @Nullable TemplateDescriptor control(@Selector String name, String action, @Nullable String strategy,
            @Nullable Integer connections) {
        StrategySwitcher switcher = this.switchers.get(name);
        if (switcher == null) {
            return null;
        }
        switch (action.toLowerCase(Locale.ROOT)) {
            case "pin" -> switcher.pin(spec(strategy, connections));
            case "unpin" -> switcher.unpin();
            case "trial" -> switcher.forceTrial(spec(strategy, connections));
            default -> throw new IllegalArgumentException("Unknown action '" + action + "'; use pin, unpin or trial");
        }
        return describe(switcher);
    }

    static StrategySpec spec(@Nullable String strategy, @Nullable Integer connections) {
        if (strategy == null) {
            throw new IllegalArgumentException("Name a strategy: single, multi or pooled");
        }
        return switch (strategy.toLowerCase(Locale.ROOT)) {
            case "single" -> StrategySpec.single();
            case "multi" -> connections == null ? StrategySpec.multi() : StrategySpec.multi(connections, SelectorType.ROUND_ROBIN);
            case "pooled" -> StrategySpec.pooled(connections == null ? PoolSettings.DEFAULTS : PoolSettings.ofSize(connections));
            default -> throw new IllegalArgumentException("Unknown strategy '" + strategy + "'; use single, multi or pooled");
        };
    }

    private static TemplateDescriptor describe(StrategySwitcher switcher) {
        AdaptiveState state = switcher.state();
        DefaultCacheTemplate<?> template = switcher.template();
        StrategyStats stats = template.isRunning() ? template.strategyStats() : null;
        WindowSample window = state.lastWindow();
        Figures figures = window == null ? null
                : new Figures(Math.round(window.throughput()), window.p50LatencyNanos() / 1e6, window.p99LatencyNanos() / 1e6,
                        window.meanBorrowWaitNanos() / 1e6, stats == null ? 0 : stats.inFlight(), window.waitingBorrowers(),
                        window.errors(), Math.round(window.concurrency() * 10) / 10.0);
        Decision decision = state.lastDecision();
        return new TemplateDescriptor(template.backendKind(), transport(template), state.mode().name().toLowerCase(Locale.ROOT),
                state.pinned() == null ? null : state.pinned().toString(), state.active().toString(),
                state.active().connections(), state.since(),
                decision == null ? null : new DecisionDescriptor(decision.reason().name(), decision.target().toString(),
                        decision.evidence()),
                figures, state.suppressed(), ResilienceDescriptor.of(template),
                template.nodeSensors().map(nodes -> nodes.figures().stream().map(NodeDescriptor::of).toList()).orElse(null),
                state.history().stream().map(SwitchDescriptor::of).toList());
    }

    /**
     * The network transport a template's client uses: Lettuce's, which is one per JVM, for
     * Redis; both memcached drivers (spymemcached, XMemcached) always run on Java NIO.
     */
    private static String transport(DefaultCacheTemplate<?> template) {
        if ("redis".equals(template.backendKind()) && LETTUCE_PRESENT) {
            return io.adaptivecache.redis.RedisTransport.inUse().label();
        }
        return "nio";
    }

    private static final boolean LETTUCE_PRESENT = org.springframework.util.ClassUtils.isPresent("io.lettuce.core.RedisClient",
            AdaptiveCacheEndpoint.class.getClassLoader());

    /**
     * Every template.
     * @param templates by name
     */
    public record TemplatesDescriptor(Map<String, TemplateDescriptor> templates) implements OperationResponseBody {
    }

    /**
     * One template.
     * @param backend redis or memcached
     * @param transport the client's network transport: nio, epoll or io_uring
     * @param mode auto or advise
     * @param pinned the pinned strategy, if any
     * @param strategy the live strategy
     * @param connections its N (max-total for POOLED)
     * @param since when it went live
     * @param lastDecision the switcher's last decision
     * @param figures the last window's figures
     * @param suppressed whether changes are suspended for flapping
     * @param resilience the circuit breaker and what failures look like to callers
     * @param nodes figures per server node, for a Redis Cluster (absent otherwise)
     * @param recentSwitches recent switches, oldest first
     */
    public record TemplateDescriptor(String backend, String transport, String mode, @Nullable String pinned, String strategy, int connections,
            Instant since, @Nullable DecisionDescriptor lastDecision, @Nullable Figures figures, boolean suppressed,
            ResilienceDescriptor resilience, @Nullable List<NodeDescriptor> nodes, List<SwitchDescriptor> recentSwitches)
            implements OperationResponseBody {
    }

    /**
     * One server node's share of a template's calls: totals since start and the last window.
     * @param address where it listens
     * @param id its cluster node id
     * @param calls calls since start
     * @param errors failed calls since start, timeouts included
     * @param timeouts timed-out calls since start
     * @param meanMillis mean latency since start
     * @param windowCalls calls in the last window
     * @param windowErrors failed calls in the last window
     * @param windowMeanMillis mean latency in the last window
     * @param windowMaxMillis slowest call in the last window
     */
    public record NodeDescriptor(String address, String id, long calls, long errors, long timeouts, double meanMillis,
            long windowCalls, long windowErrors, double windowMeanMillis, double windowMaxMillis) {

        static NodeDescriptor of(NodeFigures node) {
            return new NodeDescriptor(node.address(), node.id(), node.calls(), node.errors(), node.timeouts(),
                    node.meanLatencyNanos() / 1e6, node.windowCalls(), node.windowErrors(), node.windowMeanLatencyNanos() / 1e6,
                    node.windowMaxLatencyNanos() / 1e6);
        }
    }

    /**
     * A template's protection.
     * @param onFailure fail-fast or degrade
     * @param circuitBreaker the breaker's name, if there is one
     * @param circuitState its state, such as CLOSED or OPEN
     * @param failureRate percent of recent calls that failed (-1 until enough calls)
     * @param slowCallRate percent of recent calls that were slow (-1 until enough calls)
     * @param notPermittedCalls calls the breaker refused in its current window
     * @param retry whether reads are retried
     * @param bulkheadAvailable free bulkhead permits (-1 without a bulkhead)
     * @param degradedReads failed reads answered as a miss since start
     * @param skippedWrites failed writes skipped since start
     */
    public record ResilienceDescriptor(String onFailure, @Nullable String circuitBreaker, @Nullable String circuitState,
            float failureRate, float slowCallRate, long notPermittedCalls, boolean retry, int bulkheadAvailable,
            long degradedReads, long skippedWrites) {

        static ResilienceDescriptor of(DefaultCacheTemplate<?> template) {
            GuardStatus guard = template.guardStatus();
            return new ResilienceDescriptor(template.failureMode().name().toLowerCase(Locale.ROOT).replace('_', '-'),
                    guard.circuitBreaker(), guard.circuitState(), guard.failureRate(), guard.slowCallRate(),
                    guard.notPermittedCalls(), guard.retry(), guard.bulkheadAvailable(), template.degradedReads(),
                    template.skippedWrites());
        }
    }

    /**
     * A decision.
     * @param reason the reason code
     * @param target the strategy it asked for
     * @param evidence the figures behind it
     */
    public record DecisionDescriptor(String reason, String target, String evidence) {
    }

    /**
     * The key figures of the last window.
     * @param throughput calls per second
     * @param p50Millis median latency
     * @param p99Millis 99th percentile latency
     * @param poolWaitMillis mean wait for a pooled connection
     * @param inFlight calls in flight now
     * @param waitingBorrowers callers waiting for a pooled connection
     * @param errors failed calls in the window
     * @param concurrency offered concurrency
     */
    public record Figures(long throughput, double p50Millis, double p99Millis, double poolWaitMillis, int inFlight,
            int waitingBorrowers, long errors, double concurrency) {
    }

    /**
     * A switch.
     * @param at when
     * @param from the strategy before
     * @param to the strategy after
     * @param reason why
     * @param evidence the figures behind it
     * @param outcome switched or failed
     * @param warmUpMillis time to open the new strategy
     * @param drainMillis time the old one took to finish its calls
     */
    public record SwitchDescriptor(Instant at, String from, String to, String reason, String evidence, String outcome,
            long warmUpMillis, long drainMillis) {

        static SwitchDescriptor of(SwitchEvent event) {
            return new SwitchDescriptor(event.at(), event.from().toString(), event.to().toString(), event.reason().name(),
                    event.evidence(), event.outcome().name(), millis(event.warmUp()), millis(event.drain()));
        }

        private static long millis(Duration duration) {
            return duration.toMillis();
        }
    }
}
