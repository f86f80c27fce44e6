package io.adaptivecache.actuate.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import io.adaptivecache.management.TemplateNodes;
import io.adaptivecache.adaptive.AdaptiveState;
import io.adaptivecache.adaptive.Decision;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.StrategySwitchers;
import io.adaptivecache.adaptive.SwitchEvent;
import io.adaptivecache.management.CacheTemplateManagement;
import io.adaptivecache.management.TemplateStats;
import io.adaptivecache.metrics.NodeFigures;
import io.adaptivecache.near.NearCacheStats;
import io.adaptivecache.near.NearCacheTemplate;
import io.adaptivecache.metrics.WindowHistory;
import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyStats;
import org.jspecify.annotations.Nullable;
import io.adaptivecache.resilience.GuardStatus;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * {@code /actuator/adaptivecache}: every template's backend, mode, live strategy, last decision
 * with its evidence, recent switches and key figures; {@code /actuator/adaptivecache/{name}} for
 * one; {@code /actuator/adaptivecache/{name}/history} for its last windows (five minutes of them by
 * default, {@code adaptive-cache.<name>.adaptive.history}), oldest first. A POST to {@code /actuator/adaptivecache/{name}} with {@code action} = {@code pin} (and
 * {@code strategy}, optionally {@code connections}), {@code unpin} or {@code trial} controls its
 * switcher: each request is checked in full (template, action, strategy, and connections from 1 to the
 * template's connection limit, {@code adaptive-cache.<name>.adaptive.connection-limit}) before
 * anything is opened, and a strategy that cannot be opened changes nothing. Over HTTP,
 * {@link AdaptiveCacheEndpointWebExtension} answers 400 or 404 for a refused request and 503 for a
 * strategy that could not be opened, each with {@code {"error": "..."}}. Exposed over HTTP only when the application exposes it
 * ({@code management.endpoints.web.exposure.include=adaptivecache}); even then its access is
 * read-only by default, so the POST exists only once the application also sets
 * {@code management.endpoint.adaptivecache.access=unrestricted} (secure it, as the README shows).
 * Nothing here carries a credential: templates are described by host, port and strategy.
 */
@Endpoint(id = "adaptivecache", defaultAccess = Access.READ_ONLY)
public class AdaptiveCacheEndpoint {

    private final StrategySwitchers switchers;
    private final Supplier<? extends Collection<NearCacheTemplate>> nearCaches;

    /**
     * Creates the endpoint, with no near caches to show.
     * @param switchers the templates' switchers
     */
    public AdaptiveCacheEndpoint(StrategySwitchers switchers) {
        this(switchers, List::of);
    }

    /**
     * Creates the endpoint.
     * @param switchers the templates' switchers
     * @param nearCaches the near caches there are now, each shown with the template behind it
     */
    public AdaptiveCacheEndpoint(StrategySwitchers switchers, Supplier<? extends Collection<NearCacheTemplate>> nearCaches) {
        this.switchers = switchers;
        this.nearCaches = nearCaches;
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
     * A template's last windows, oldest first, each with the time it closed and the strategy that
     * served it: what the live page draws when it opens.
     * @param name the template's name, such as {@code redis}
     * @param part {@code history}
     * @return the windows, or {@code null} (404) if there is no template of that name or {@code part} is not {@code history}
     */
    @ReadOperation
    public @Nullable HistoryDescriptor history(@Selector String name, @Selector String part) {
        StrategySwitcher switcher = this.switchers.get(name);
        if (switcher == null || !"history".equals(part)) {
            return null;
        }
        List<WindowHistory.Entry> entries = switcher.windowHistory();
        List<WindowDescriptor> windows = new ArrayList<>(entries.size());
        for (WindowHistory.Entry entry : entries) {
            windows.add(WindowDescriptor.of(entry));
        }
        return new HistoryDescriptor(windows);
    }

    /**
     * Controls a template's switcher (the operation JMX and direct callers see; over HTTP,
     * {@link AdaptiveCacheEndpointWebExtension} answers the same request with a status and a reason).
     * @param name the template's name
     * @param action {@code pin}, {@code unpin} or {@code trial}
     * @param strategy for pin and trial: {@code single}, {@code multi} or {@code pooled}
     * @param connections for multi: N (default: available processors); for pooled: max-total (default 8);
     *        from 1 to the template's connection limit; ignored for single
     * @return the template after the change
     * @throws InvalidEndpointRequestException if there is no template of that name or the request
     *         is invalid (the reason says what is allowed); nothing was opened
     * @throws IllegalStateException if the strategy could not be opened; nothing changed
     */
    @WriteOperation
    public TemplateDescriptor control(@Selector String name, @Nullable String action, @Nullable String strategy,
            @Nullable Integer connections) {
        ControlOutcome outcome = execute(name, action, strategy, connections == null ? null : connections.toString());
        if (outcome.status() == ControlOutcome.OK) {
            return outcome.template();
        }
        if (outcome.status() == ControlOutcome.NOT_OPENED) {
            throw new IllegalStateException(outcome.error());
        }
        throw new InvalidEndpointRequestException(outcome.error(), outcome.error());
    }

    /**
     * Checks and carries out a control request. Everything is checked before anything is
     * opened: the template, the action, the strategy and the connections, which must be from 1
     * to the template's {@linkplain StrategySwitcher#connectionLimit() connection limit}. A
     * pin or trial whose strategy cannot be opened changes nothing (see {@link StrategySwitcher#pin}).
     * @param name the template's name
     * @param action {@code pin}, {@code unpin} or {@code trial}, in any case
     * @param strategy for pin and trial: {@code single}, {@code multi} or {@code pooled}, in any case
     * @param connections a whole number as text, or {@code null} for the strategy's default
     * @return what the request came to
     */
    ControlOutcome execute(String name, @Nullable String action, @Nullable String strategy, @Nullable String connections) {
        StrategySwitcher switcher = this.switchers.get(name);
        if (switcher == null) {
            return ControlOutcome.refused(ControlOutcome.NOT_FOUND, "No template named '" + name + "'; the templates are: "
                    + String.join(", ", this.switchers.all().stream().map(each -> each.template().name()).toList()));
        }
        String verb = action == null ? "" : action.trim().toLowerCase(Locale.ROOT);
        switch (verb) {
            case "unpin" -> {
                switcher.unpin();
                return ControlOutcome.ok(describe(switcher));
            }
            case "pin", "trial" -> {
                // Below.
            }
            case "" -> {
                return ControlOutcome.refused(ControlOutcome.BAD_REQUEST, "Name an action: \"action\" is pin, unpin or trial");
            }
            default -> {
                return ControlOutcome.refused(ControlOutcome.BAD_REQUEST, "Unknown action '" + action + "'; use pin, unpin or trial");
            }
        }
        StrategySpec spec;
        SwitchEvent event;
        try {
            spec = spec(verb, strategy, connections, switcher.connectionLimit(), limitOf(name));
            if (!switcher.template().stats().connected()) {
                return notConnected(switcher, name);
            }
            event = verb.equals("pin") ? switcher.pin(spec) : switcher.forceTrial(spec);
        }
        catch (IllegalArgumentException ex) {
            // Ours, or the switcher's own check of the limit: either way before anything was opened.
            return ControlOutcome.refused(ControlOutcome.BAD_REQUEST, ex.getMessage());
        }
        if (event != null && event.outcome() == SwitchEvent.Outcome.FAILED) {
            AdaptiveState state = switcher.state();
            return ControlOutcome.refused(ControlOutcome.NOT_OPENED, "Could not open " + spec + " for template '" + name
                    + "', so nothing changed: " + state.active() + " still serves"
                    + (state.pinned() == null ? " and nothing is pinned" : " and " + state.pinned() + " stays pinned")
                    + ". Cause: " + event.failure());
        }
        return ControlOutcome.ok(describe(switcher));
    }

    /** A pin or trial on a template that started without its server: refused whole, before anything is opened. */
    private static ControlOutcome notConnected(StrategySwitcher switcher, String name) {
        String why = switcher.template().stats().pendingConnection()
                .map(pending -> " (" + pending.server() + ": " + pending.reason() + "; next attempt at " + pending.nextAttempt() + ")")
                .orElse("");
        return ControlOutcome.refused(ControlOutcome.NOT_OPENED, "Template '" + name + "' has not connected to its server yet" + why
                + ", so nothing changed: it connects with its configured strategy " + switcher.template().stats().activeStrategy()
                + " once the server answers; pin or trial after that");
    }

    private String limitOf(String name) {
        String property = this.switchers.connectionLimitProperty(name);
        return property == null ? "" : " (" + property + ")";
    }

    /**
     * The strategy a pin or trial asks for.
     * @throws IllegalArgumentException naming what was wrong and what is allowed
     */
    static StrategySpec spec(String verb, @Nullable String strategy, @Nullable String connections, int limit, String limitSource) {
        if (strategy == null || strategy.isBlank()) {
            throw new IllegalArgumentException("Action '" + verb + "' needs a strategy: \"strategy\" is single, multi or pooled");
        }
        String type = strategy.trim().toLowerCase(Locale.ROOT);
        if (!type.equals("single") && !type.equals("multi") && !type.equals("pooled")) {
            throw new IllegalArgumentException("Unknown strategy '" + strategy + "'; use single, multi or pooled");
        }
        if (type.equals("single")) {
            return StrategySpec.single(); // one connection whatever "connections" says
        }
        Integer count = connections(connections, limit, limitSource);
        if (type.equals("multi")) {
            return StrategySpec.multi(count != null ? count : Math.min(StrategySpec.defaultMultiConnections(), limit),
                    SelectorType.ROUND_ROBIN);
        }
        return StrategySpec.pooled(count != null ? PoolSettings.ofSize(count)
                : PoolSettings.DEFAULTS.maxTotal() <= limit ? PoolSettings.DEFAULTS : PoolSettings.ofSize(limit));
    }

    private static @Nullable Integer connections(@Nullable String connections, int limit, String limitSource) {
        if (connections == null || connections.isBlank()) {
            return null;
        }
        String allowed = "; ask for 1 to " + limit + " (N of multi, max-total of pooled)";
        long count;
        try {
            count = Long.parseLong(connections.trim());
        }
        catch (NumberFormatException ex) {
            throw new IllegalArgumentException("\"connections\" must be a whole number, was '" + connections + "'" + allowed);
        }
        if (count < 1) {
            throw new IllegalArgumentException("\"connections\" must be at least 1, was " + count + allowed);
        }
        if (count > limit) {
            throw new IllegalArgumentException("\"connections\" " + count + " is above the connection limit of " + limit
                    + limitSource + allowed);
        }
        return (int) count;
    }

    private TemplateDescriptor describe(StrategySwitcher switcher) {
        AdaptiveState state = switcher.state();
        CacheTemplateManagement template = switcher.template();
        TemplateStats now = template.stats();
        StrategyStats stats = now.running() ? now.strategyStats() : null;
        WindowSample window = state.lastWindow();
        Figures figures = window == null ? null
                : new Figures(Math.round(window.throughput()), window.p50LatencyNanos() / 1e6, window.p99LatencyNanos() / 1e6,
                        window.meanBorrowWaitNanos() / 1e6, stats == null ? 0 : stats.inFlight(), window.waitingBorrowers(),
                        window.errors(), Math.round(window.concurrency() * 10) / 10.0);
        Decision decision = state.lastDecision();
        return new TemplateDescriptor(now.backendKind(), transport(template), state.mode().name().toLowerCase(Locale.ROOT),
                state.pinned() == null ? null : state.pinned().toString(), state.active().toString(),
                state.active().connections(), state.since(),
                decision == null ? null : new DecisionDescriptor(decision.reason().name(), decision.target().toString(),
                        decision.evidence()),
                figures, state.suppressed(), ResilienceDescriptor.of(now),
                template.nodes().map(TemplateNodes::sensors).map(nodes -> nodes.figures().stream().map(NodeDescriptor::of).toList()).orElse(null),
                state.history().stream().map(SwitchDescriptor::of).toList(), lastWindow(switcher),
                this.nearCaches.get().stream().filter(near -> near.remote() == template).map(NearCacheDescriptor::of).toList());
    }

    private static @Nullable WindowDescriptor lastWindow(StrategySwitcher switcher) {
        WindowHistory.Entry latest = switcher.latestWindow();
        return latest == null ? null : WindowDescriptor.of(latest);
    }

    /**
     * The network transport a template's client uses: Lettuce's, which is one per JVM, for
     * Redis; both memcached drivers (spymemcached, XMemcached) always run on Java NIO.
     */
    private static String transport(CacheTemplateManagement template) {
        if ("redis".equals(template.stats().backendKind()) && LETTUCE_PRESENT) {
            return io.adaptivecache.redis.RedisTransport.inUse().label();
        }
        return "nio";
    }

    private static final boolean LETTUCE_PRESENT = org.springframework.util.ClassUtils.isPresent("io.lettuce.core.RedisClient",
            AdaptiveCacheEndpoint.class.getClassLoader());

    /**
     * What a control request came to: a status, as HTTP would give it, with the template after
     * the change or the reason the request was refused.
     * @param status {@link #OK}, {@link #BAD_REQUEST}, {@link #NOT_FOUND} or {@link #NOT_OPENED}
     * @param template the template after the change, for {@link #OK}; {@code null} otherwise
     * @param error why the request was refused and what is allowed; {@code null} for {@link #OK}
     */
    public record ControlOutcome(int status, @Nullable TemplateDescriptor template, @Nullable String error) {

        /** Done: the template after the change follows. */
        public static final int OK = 200;

        /** An invalid request (action, strategy or connections); nothing was opened. */
        public static final int BAD_REQUEST = 400;

        /** No template of that name. */
        public static final int NOT_FOUND = 404;

        /**
         * The strategy could not be opened (the server refused or failed), or the template has not
         * connected to its server yet; nothing changed.
         */
        public static final int NOT_OPENED = 503;

        static ControlOutcome ok(TemplateDescriptor template) {
            return new ControlOutcome(OK, template, null);
        }

        static ControlOutcome refused(int status, String error) {
            return new ControlOutcome(status, null, error);
        }
    }

    /**
     * The body of a refused control request.
     * @param error what was wrong and what is allowed
     */
    public record ErrorDescriptor(String error) implements OperationResponseBody {
    }

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
     * @param lastWindow the last window, as the {@linkplain #history history} ends with it ({@code null} before the first)
     * @param nearCaches the near caches (local tiers) in front of this template
     */
    public record TemplateDescriptor(String backend, String transport, String mode, @Nullable String pinned, String strategy, int connections,
            Instant since, @Nullable DecisionDescriptor lastDecision, @Nullable Figures figures, boolean suppressed,
            ResilienceDescriptor resilience, @Nullable List<NodeDescriptor> nodes, List<SwitchDescriptor> recentSwitches,
            @Nullable WindowDescriptor lastWindow, List<NearCacheDescriptor> nearCaches)
            implements OperationResponseBody {
    }

    /**
     * A near cache in front of a template.
     * @param name its name (the Spring cache's)
     * @param serving whether its local tier answers reads now
     * @param entries local copies held (an estimate)
     * @param hits reads answered locally
     * @param misses reads sent to the server (local misses and reads while not serving)
     * @param invalidations local copies dropped because the server reported a change or a write went through it
     * @param stalenessBoundMillis the longest a read can lag behind a completed write
     */
    public record NearCacheDescriptor(String name, boolean serving, long entries, long hits, long misses, long invalidations,
            long stalenessBoundMillis) {

        static NearCacheDescriptor of(NearCacheTemplate near) {
            NearCacheStats stats = near.stats();
            return new NearCacheDescriptor(near.name(), near.isServingLocally(), stats.size(), stats.localHits(),
                    stats.localMisses() + stats.bypassedReads(), stats.serverInvalidations() + stats.writeInvalidations(),
                    near.stalenessBound().toMillis());
        }
    }

    /**
     * A template's last windows.
     * @param windows oldest first
     */
    public record HistoryDescriptor(List<WindowDescriptor> windows) implements OperationResponseBody {
    }

    /**
     * One window, as the live page draws it.
     * @param at when it closed
     * @param seconds its length
     * @param strategy the strategy that served it (the new one, for a window in which the strategy changed)
     * @param strategyType that strategy's type: SINGLE, MULTI or POOLED
     * @param connections that strategy's N (max-total for POOLED)
     * @param calls calls completed in it
     * @param errors calls that failed in it
     * @param throughput calls per second, rounded
     * @param p50Millis median latency
     * @param p99Millis 99th percentile latency
     * @param disturbance why the window did not count for a decision, or {@code null}
     */
    public record WindowDescriptor(Instant at, double seconds, String strategy, String strategyType, int connections, long calls,
            long errors, long throughput, double p50Millis, double p99Millis, @Nullable String disturbance) {

        static WindowDescriptor of(WindowHistory.Entry entry) {
            WindowSample window = entry.sample();
            return new WindowDescriptor(Instant.ofEpochMilli(entry.endEpochMillis()), window.seconds(), window.strategy().toString(),
                    window.strategy().type().name(), window.strategy().connections(), window.calls(), window.errors(),
                    Math.round(window.throughput()), window.p50LatencyNanos() / 1e6, window.p99LatencyNanos() / 1e6,
                    window.disturbance());
        }
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

        static ResilienceDescriptor of(TemplateStats template) {
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
     * @param evidence the figures behind it, and for a failed switch the failure after them
     *        ({@link SwitchEvent#describedEvidence()})
     * @param outcome switched or failed
     * @param warmUpMillis time to open the new strategy
     * @param drainMillis time the old one took to finish its calls
     */
    public record SwitchDescriptor(Instant at, String from, String to, String reason, String evidence, String outcome,
            long warmUpMillis, long drainMillis) {

        static SwitchDescriptor of(SwitchEvent event) {
            return new SwitchDescriptor(event.at(), event.from().toString(), event.to().toString(), event.reason().name(),
                    event.describedEvidence(), event.outcome().name(), millis(event.warmUp()), millis(event.drain()));
        }

        private static long millis(Duration duration) {
            return duration.toMillis();
        }
    }
}
