package io.adaptivecache.benchmarks.targets;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

import io.adaptivecache.adaptive.AdaptiveMode;
import io.adaptivecache.adaptive.AdaptiveState;
import io.adaptivecache.adaptive.Decision;
import io.adaptivecache.adaptive.DecisionReason;
import io.adaptivecache.adaptive.StrategySwitcher;
import io.adaptivecache.adaptive.SwitchEvent;
import io.adaptivecache.adaptive.ThresholdStrategyPolicy;
import io.adaptivecache.benchmarks.load.Settling;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.StrategySpec;

/**
 * adaptive-cache in adaptive mode: a template that starts on the Boot default (MULTI at N =
 * cores) with its switcher running the default policy, on shorter timings so that a cell of
 * seconds can see it settle. Settled means the policy called two windows in a row steady (or
 * can no longer act); the switches and the time of the last one are reported.
 */
class AdaptiveTemplateClient extends CacheTemplateClient {

    /** Decisions after which nothing will change without a change in load. */
    private static final Set<DecisionReason> RESTING = EnumSet.of(DecisionReason.STEADY, DecisionReason.SUPPRESSED,
            DecisionReason.BUDGET_EXHAUSTED, DecisionReason.REJECTED_AT_THIS_LOAD);

    private final ManagedCacheTemplate template;
    private final StrategySwitcher switcher;

    AdaptiveTemplateClient(ManagedCacheTemplate template, AdaptiveTimings timings) {
        this(template, started(template, timings));
    }

    /**
     * A template whose switcher runs already, made by someone else (a Spring context): settling,
     * the live strategy and the switches are read from it in the same way.
     */
    AdaptiveTemplateClient(ManagedCacheTemplate template, StrategySwitcher switcher) {
        super(template);
        this.template = template;
        this.switcher = switcher;
    }

    private static StrategySwitcher started(ManagedCacheTemplate template, AdaptiveTimings timings) {
        ThresholdStrategyPolicy.Settings settings = ThresholdStrategyPolicy.Settings.defaults()
                .withTimings(timings.dwell(), timings.trial());
        // As the auto-configuration does: a template with blocking POOLED connections may move a few callers onto them, and
        // one whose shared connections each run a thread of their own may try fewer of them.
        ThresholdStrategyPolicy.BlockingPool blockingPool = template.stats().pooledConnectionsBlock()
                ? ThresholdStrategyPolicy.BlockingPool.DEFAULTS : null;
        ThresholdStrategyPolicy policy = new ThresholdStrategyPolicy(settings, blockingPool, template.stats().threadPerSharedConnection());
        StrategySwitcher switcher = new StrategySwitcher(template, policy, timings.window(),
                AdaptiveMode.AUTO,
                null, System::nanoTime, Clock.systemUTC(), event -> {
                });
        switcher.start();
        return switcher;
    }

    @Override
    public Settling settle(long loadStartedNanos, Duration limit) {
        Instant loadStarted = Instant.now().minusNanos(System.nanoTime() - loadStartedNanos);
        long deadline = System.nanoTime() + limit.toNanos();
        long lastSeenWindow = Long.MIN_VALUE;
        int restingWindows = 0;
        boolean settled = false;
        while (System.nanoTime() < deadline) {
            Decision decision = this.switcher.state().lastDecision();
            if (decision != null && decision.atNanos() != lastSeenWindow) {
                lastSeenWindow = decision.atNanos();
                restingWindows = RESTING.contains(decision.reason()) ? restingWindows + 1 : 0;
                if (restingWindows >= 2) {
                    settled = true;
                    break;
                }
            }
            // Polling the switcher's state between its windows; the callers keep loading meanwhile.
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
        }
        AdaptiveState state = this.switcher.state();
        int switches = 0;
        Instant lastSwitch = null;
        for (SwitchEvent event : state.history()) {
            if (event.outcome() == SwitchEvent.Outcome.SWITCHED) {
                switches++;
                lastSwitch = event.at();
            }
        }
        Duration lastSwitchAfter = lastSwitch == null ? Duration.ZERO : Duration.between(loadStarted, lastSwitch);
        return new Settling(switches, lastSwitchAfter, settled, describe(this.template.stats().activeStrategy()));
    }

    @Override
    public String liveStrategy() {
        return describe(this.template.stats().activeStrategy());
    }

    @Override
    public List<Switch> switchesSince(Instant since) {
        List<Switch> switches = new ArrayList<>();
        for (SwitchEvent event : this.switcher.state().history()) {
            if (event.outcome() == SwitchEvent.Outcome.SWITCHED && !event.at().isBefore(since)) {
                switches.add(new Switch(event.at(), describe(event.to()), event.reason().name()));
            }
        }
        return switches;
    }

    private static String describe(StrategySpec strategy) {
        return switch (strategy.type()) {
            case SINGLE -> "SINGLE";
            case MULTI -> "MULTI(" + strategy.connections() + ")";
            case POOLED -> "POOLED(" + strategy.pool().maxTotal() + ")";
        };
    }

    @Override
    public void close() {
        this.switcher.close();
        super.close();
    }

    /**
     * The switcher's timings for a benchmark cell.
     * @param window how often it samples and decides
     * @param dwell the least time between switches
     * @param trial how long a new strategy is on trial
     */
    record AdaptiveTimings(Duration window, Duration dwell, Duration trial) {
    }
}
