package io.adaptivecache.micrometer;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

import io.adaptivecache.adaptive.Decision;
import io.adaptivecache.adaptive.DecisionReason;
import io.adaptivecache.adaptive.SwitchEvent;
import io.adaptivecache.call.CacheCommand;
import io.adaptivecache.call.CallObserver;
import io.adaptivecache.call.CallOutcome;
import io.adaptivecache.management.CacheTemplateManagement;
import io.adaptivecache.management.TemplateStats;
import io.adaptivecache.metrics.NodeSensor;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.strategy.StrategyType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

/**
 * A template's Micrometer meters, all tagged {@code backend} and {@code template}:
 * <ul>
 * <li>{@code adaptive.cache.commands} (timer; plus {@code strategy}, {@code command}, {@code outcome}),</li>
 * <li>{@code adaptive.cache.connections.acquire} (function timer of POOLED borrow waits),</li>
 * <li>{@code adaptive.cache.degraded} (function counter; plus {@code kind}: {@code read} answered as a miss,
 * {@code write} skipped),</li>
 * <li>{@code adaptive.cache.connections.pending}, {@code adaptive.cache.connections.open},
 * {@code adaptive.cache.calls.inflight} (gauges),</li>
 * <li>{@code adaptive.cache.strategy.switches} (counter; plus {@code from}, {@code to}, {@code reason}, {@code outcome}),</li>
 * <li>{@code adaptive.cache.strategy.active} (1 for the live {@code strategy}, 0 for the others),
 * {@code adaptive.cache.strategy.connections} (N), {@code adaptive.cache.adaptive.decision}
 * (1 for the last decision's {@code reason}).</li>
 * </ul>
 * The command timers are created on first use and kept in an array indexed by strategy, command
 * and outcome, so recording a call is an array read and {@link Timer#record}.
 */
public final class CacheTemplateMeters implements CallObserver {

    private static final StrategyType[] STRATEGIES = StrategyType.values();
    private static final CacheCommand[] COMMANDS = CacheCommand.values();
    private static final CallOutcome[] OUTCOMES = CallOutcome.values();

    private final CacheTemplateManagement template;
    private final MeterRegistry registry;
    private final Tags tags;
    private final AtomicReferenceArray<@Nullable Timer> timers =
            new AtomicReferenceArray<>(STRATEGIES.length * COMMANDS.length * OUTCOMES.length);

    private CacheTemplateMeters(CacheTemplateManagement template, MeterRegistry registry) {
        this.template = template;
        this.registry = registry;
        this.tags = Tags.of("backend", template.stats().backendKind(), "template", template.name());
    }

    /**
     * Registers a template's meters and starts timing its calls.
     * @param template the template
     * @param registry the registry
     * @param lastDecision the template switcher's last decision ({@code null} while there is none)
     * @return the meters, whose {@link #onSwitch} counts switches
     */
    public static CacheTemplateMeters bind(CacheTemplateManagement template, MeterRegistry registry,
            Supplier<@Nullable Decision> lastDecision) {
        CacheTemplateMeters meters = new CacheTemplateMeters(template, registry);
        meters.registerGauges(lastDecision);
        template.nodes().ifPresent(nodes -> nodes.sensors().onNewNode(meters::registerNode));
        template.sensors().addObserver(meters);
        return meters;
    }

    /** One scrape's reading of a template: each gauge reads its own, as Micrometer reads gauges one by one. */
    private static TemplateStats stats(CacheTemplateManagement template) {
        return template.stats();
    }

    private void registerGauges(Supplier<@Nullable Decision> lastDecision) {
        Gauge.builder("adaptive.cache.connections.open", this.template, t -> stats(t).running() ? stats(t).openConnections() : 0)
                .tags(this.tags).description("Connections the template has open").register(this.registry);
        Gauge.builder("adaptive.cache.calls.inflight", this.template, t -> stats(t).running() ? stats(t).strategyStats().inFlight() : 0)
                .tags(this.tags).description("Calls holding or waiting for a connection").register(this.registry);
        Gauge.builder("adaptive.cache.connections.pending", this.template,
                t -> stats(t).running() ? stats(t).strategyStats().waitingBorrowers() : 0)
                .tags(this.tags).description("Callers waiting for a pooled connection").register(this.registry);
        Gauge.builder("adaptive.cache.strategy.connections", this.template,
                t -> stats(t).running() ? stats(t).activeStrategy().connections() : 0)
                .tags(this.tags).description("N of the live strategy (max-total for POOLED)").register(this.registry);
        for (StrategyType type : STRATEGIES) {
            Gauge.builder("adaptive.cache.strategy.active", this.template,
                    t -> stats(t).running() && stats(t).activeStrategy().type() == type ? 1 : 0)
                    .tags(this.tags.and("strategy", tag(type))).description("1 for the live strategy").register(this.registry);
        }
        for (DecisionReason reason : DecisionReason.values()) {
            Gauge.builder("adaptive.cache.adaptive.decision", lastDecision, supplier -> {
                Decision decision = supplier.get();
                return decision != null && decision.reason() == reason ? 1 : 0;
            }).tags(this.tags.and("reason", tag(reason))).description("1 for the reason of the switcher's last decision")
                    .register(this.registry);
        }
        FunctionTimer.builder("adaptive.cache.connections.acquire", this.template, t -> stats(t).totalBorrows(),
                t -> stats(t).totalBorrowWaitNanos(), TimeUnit.NANOSECONDS)
                .tags(this.tags).description("Waits for a pooled connection").register(this.registry);
        FunctionCounter.builder("adaptive.cache.degraded", this.template, t -> stats(t).degradedReads())
                .tags(this.tags.and("kind", "read")).description("Failed reads answered as a miss (on-failure: degrade)")
                .register(this.registry);
        FunctionCounter.builder("adaptive.cache.degraded", this.template, t -> stats(t).skippedWrites())
                .tags(this.tags.and("kind", "write")).description("Failed writes skipped (on-failure: degrade)")
                .register(this.registry);
    }

    /**
     * One server node's meters, tagged with its address; registered when the node is first seen,
     * read from its sensor (weakly held, as Micrometer's function meters do) on each scrape.
     */
    private void registerNode(NodeSensor node) {
        Tags nodeTags = this.tags.and("node", node.address());
        FunctionTimer.builder("adaptive.cache.node.commands", node, NodeSensor::calls, NodeSensor::totalLatencyNanos,
                TimeUnit.NANOSECONDS).tags(nodeTags).description("Single-key calls served by one node, from sending to the reply")
                .register(this.registry);
        FunctionCounter.builder("adaptive.cache.node.errors", node, NodeSensor::errors).tags(nodeTags)
                .description("Failed single-key calls to one node, timeouts included").register(this.registry);
        FunctionCounter.builder("adaptive.cache.node.timeouts", node, NodeSensor::timeouts).tags(nodeTags)
                .description("Timed-out single-key calls to one node").register(this.registry);
    }

    @Override
    public void onCall(CacheCommand command, CallOutcome outcome, long latencyNanos) {
        StrategySpec live = this.template.sensors().liveStrategy();
        int strategy = live != null ? live.type().ordinal() : 0;
        int index = (strategy * COMMANDS.length + command.ordinal()) * OUTCOMES.length + outcome.ordinal();
        Timer timer = this.timers.get(index);
        if (timer == null) {
            // First call of this kind: registration is idempotent, so a race only writes the same timer twice.
            timer = Timer.builder("adaptive.cache.commands").tags(this.tags)
                    .tags("strategy", tag(STRATEGIES[strategy]), "command", command.tag(), "outcome", outcome.tag())
                    .description("Cache calls, from the call to its completion").register(this.registry);
            this.timers.set(index, timer);
        }
        timer.record(latencyNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Counts a switch of this template.
     * @param event the switch
     */
    public void onSwitch(SwitchEvent event) {
        if (!event.template().equals(this.template.name())) {
            return;
        }
        Counter.builder("adaptive.cache.strategy.switches").tags(this.tags)
                .tags("from", tag(event.from()), "to", tag(event.to()), "reason", tag(event.reason()), "outcome",
                        event.outcome().name().toLowerCase(Locale.ROOT))
                .description("Strategy switches").register(this.registry).increment();
    }

    private static String tag(StrategySpec spec) {
        return tag(spec.type());
    }

    private static String tag(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
