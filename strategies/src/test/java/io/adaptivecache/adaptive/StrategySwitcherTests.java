package io.adaptivecache.adaptive;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.PoolSettings;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/** The switcher on a fake clock and in-memory connections that count their opens and closes. */
class StrategySwitcherTests {

    private final InMemoryBackend backend = new InMemoryBackend();
    private final ManagedCacheTemplate template = this.backend.template("memory", StrategySpec.multi(4, SelectorType.ROUND_ROBIN),
            Duration.ofSeconds(5));
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final Clock wall = Clock.fixed(Instant.parse("2026-11-21T12:00:00Z"), ZoneOffset.UTC);
    private final List<SwitchEvent> events = new ArrayList<>();
    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void close() {
        this.template.close();
        this.executor.shutdownNow();
    }

    private StrategySwitcher switcher(StrategyPolicy policy, AdaptiveMode mode, StrategySpec pinned) {
        this.template.start();
        return new StrategySwitcher(this.template, policy, Duration.ofSeconds(1), mode, pinned, this.nanos::get, this.wall,
                this.events::add);
    }

    /** One second of light traffic, then the window is evaluated. */
    private Decision window(StrategySwitcher switcher, int calls) {
        for (int i = 0; i < calls; i++) {
            this.template.set("k" + i, new byte[] {1}, Duration.ZERO);
            this.template.get("k" + i);
        }
        this.nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        return switcher.evaluate();
    }

    private ThresholdStrategyPolicy idleShrinkingPolicy() {
        return new ThresholdStrategyPolicy(ThresholdStrategyPolicy.Settings.defaults().withMaxConnections(4)
                .withMinCallsPerWindow(20).withTimings(Duration.ofSeconds(10), Duration.ofSeconds(5)));
    }

    @Test
    void aSwitchDuringTheDwellShouldBeRefusedWithItsReason() {
        StrategySwitcher switcher = switcher(idleShrinkingPolicy(), AdaptiveMode.AUTO, null);

        List<DecisionReason> reasons = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            reasons.add(window(switcher, 50).reason());
        }

        assertThat(reasons.get(0)).isEqualTo(DecisionReason.DISTURBED);
        assertThat(reasons.subList(1, 8)).containsOnly(DecisionReason.DWELL);
        assertThat(this.template.stats().activeStrategy()).isEqualTo(StrategySpec.multi(4, SelectorType.ROUND_ROBIN));
        assertThat(switcher.state().lastDecision().evidence()).contains("dwell 10 s");
    }

    @Test
    void afterTheDwellIdleConnectionsShouldShrinkAndTheRetiredOnesClose() {
        StrategySwitcher switcher = switcher(idleShrinkingPolicy(), AdaptiveMode.AUTO, null);

        Decision decision = null;
        for (int i = 0; i < 20 && (decision == null || !decision.isSwitch()); i++) {
            decision = window(switcher, 50);
        }

        assertThat(decision.reason()).isEqualTo(DecisionReason.CONNECTIONS_IDLE);
        // Straight to what the load needs (under one call in flight: one connection), not halving step by step.
        assertThat(this.template.stats().activeStrategy()).isEqualTo(StrategySpec.single());
        assertThat(this.backend.openCount()).isEqualTo(1);
        assertThat(this.backend.opened).hasSize(5);
        assertThat(this.events).singleElement().satisfies(event -> {
            assertThat(event.outcome()).isEqualTo(SwitchEvent.Outcome.SWITCHED);
            assertThat(event.reason()).isEqualTo(DecisionReason.CONNECTIONS_IDLE);
            assertThat(event.evidence()).contains("concurrency");
        });
        assertThat(switcher.state().history()).containsExactlyElementsOf(this.events);
        assertThat(window(switcher, 50).reason()).as("the window that overlaps the switch").isEqualTo(DecisionReason.DISTURBED);
    }

    @Test
    void aPinnedStrategyShouldIgnoreThePolicy() {
        StrategyPolicy alwaysSwitch = new ScriptedPolicy(StrategySpec.single());
        StrategySwitcher switcher = switcher(alwaysSwitch, AdaptiveMode.AUTO, StrategySpec.multi(4, SelectorType.ROUND_ROBIN));

        for (int i = 0; i < 5; i++) {
            assertThat(window(switcher, 10).reason()).isEqualTo(DecisionReason.PINNED);
        }
        assertThat(this.template.stats().activeStrategy()).isEqualTo(StrategySpec.multi(4, SelectorType.ROUND_ROBIN));

        switcher.unpin();
        window(switcher, 10);
        assertThat(this.template.stats().activeStrategy()).isEqualTo(StrategySpec.single());
    }

    @Test
    void adviseModeShouldDecideButNeverAct() {
        StrategySwitcher switcher = switcher(new ScriptedPolicy(StrategySpec.single()), AdaptiveMode.ADVISE, null);

        Decision decision = window(switcher, 10);

        assertThat(decision.isSwitch()).isTrue();
        assertThat(this.template.stats().activeStrategy()).isEqualTo(StrategySpec.multi(4, SelectorType.ROUND_ROBIN));
        assertThat(this.events).isEmpty();
        assertThat(switcher.state().lastDecision()).isEqualTo(decision);
    }

    @Test
    void anOperatorPinShouldSwitchAtOnceAndBeRecorded() {
        StrategySwitcher switcher = switcher(new ScriptedPolicy(null), AdaptiveMode.AUTO, null);

        SwitchEvent event = switcher.pin(StrategySpec.single());

        assertThat(event.reason()).isEqualTo(DecisionReason.OPERATOR);
        assertThat(this.template.stats().activeStrategy()).isEqualTo(StrategySpec.single());
        assertThat(switcher.state().pinned()).isEqualTo(StrategySpec.single());
        assertThat(switcher.pin(StrategySpec.single())).as("already live").isNull();
    }

    @Test
    void aPinWhoseStrategyCannotBeOpenedShouldChangeNothingAndCloseWhatItOpened() {
        ScriptedPolicy policy = new ScriptedPolicy(null);
        StrategySwitcher switcher = switcher(policy, AdaptiveMode.AUTO, null);
        AdaptiveState before = switcher.state();
        this.backend.opensLeft.set(3); // the server takes 3 more connections, then refuses

        SwitchEvent event = switcher.pin(StrategySpec.multi(8, SelectorType.ROUND_ROBIN));

        assertThat(event.outcome()).isEqualTo(SwitchEvent.Outcome.FAILED);
        assertThat(event.failure()).contains("max number of clients reached");
        assertThat(event.evidence()).as("the decision's own evidence, the failure apart").isEqualTo("pinned by an operator");
        AdaptiveState after = switcher.state();
        assertThat(after.pinned()).as("not pinned").isNull();
        assertThat(after.mode()).isEqualTo(before.mode());
        assertThat(after.active()).isEqualTo(StrategySpec.multi(4, SelectorType.ROUND_ROBIN));
        assertThat(after.since()).isEqualTo(before.since());
        assertThat(this.template.stats().openConnections()).as("the template's count").isEqualTo(4);
        assertThat(this.backend.opened).as("stopped at the first refusal").hasSize(4 + 3);
        assertThat(this.backend.openCount()).as("the 3 it opened were closed").isEqualTo(4);
        assertThat(policy.applied).as("an operator's failure does not make the policy back off").isEmpty();
        // The incumbent still serves.
        this.template.set("k", new byte[] {7}, Duration.ZERO);
        assertThat(this.template.get("k")).containsExactly(7);
    }

    @Test
    void aFailedPinShouldKeepThePreviousPinAndAFailedTrialShouldNotUnpin() {
        StrategySwitcher switcher = switcher(new ScriptedPolicy(null), AdaptiveMode.AUTO, null);
        switcher.pin(StrategySpec.multi(2, SelectorType.ROUND_ROBIN));
        this.backend.failOpens.set(true);

        assertThat(switcher.pin(StrategySpec.single()).outcome()).isEqualTo(SwitchEvent.Outcome.FAILED);
        assertThat(switcher.state().pinned()).isEqualTo(StrategySpec.multi(2, SelectorType.ROUND_ROBIN));
        assertThat(switcher.forceTrial(StrategySpec.single()).outcome()).isEqualTo(SwitchEvent.Outcome.FAILED);
        assertThat(switcher.state().pinned()).as("a failed trial leaves the pin").isEqualTo(StrategySpec.multi(2, SelectorType.ROUND_ROBIN));
        assertThat(this.template.stats().activeStrategy()).isEqualTo(StrategySpec.multi(2, SelectorType.ROUND_ROBIN));

        this.backend.failOpens.set(false);
        assertThat(switcher.forceTrial(StrategySpec.single()).outcome()).isEqualTo(SwitchEvent.Outcome.SWITCHED);
        assertThat(switcher.state().pinned()).as("a trial that opened unpins").isNull();
    }

    @Test
    void anOperatorRequestAboveTheConnectionLimitShouldBeRefusedBeforeAnythingOpens() {
        this.template.start();
        StrategySwitcher switcher = new StrategySwitcher(this.template, new ScriptedPolicy(null), Duration.ofSeconds(1),
                AdaptiveMode.AUTO, null, this.nanos::get, this.wall, this.events::add, 6);
        int opened = this.backend.opened.size();

        assertThatIllegalArgumentException().isThrownBy(() -> switcher.pin(StrategySpec.multi(7, SelectorType.ROUND_ROBIN)))
                .withMessageContaining("above the limit of 6");
        assertThatIllegalArgumentException().isThrownBy(() -> switcher.forceTrial(StrategySpec.pooled(PoolSettings.ofSize(7))))
                .withMessageContaining("above the limit of 6");

        assertThat(this.backend.opened).as("nothing opened").hasSize(opened);
        assertThat(switcher.state().pinned()).isNull();
        assertThat(this.events).isEmpty();
        assertThat(switcher.connectionLimit()).isEqualTo(6);
        assertThat(switcher.pin(StrategySpec.multi(6, SelectorType.ROUND_ROBIN)).outcome()).as("at the limit")
                .isEqualTo(SwitchEvent.Outcome.SWITCHED);
    }

    @Test
    void aFailedWarmUpShouldKeepTheIncumbentAndTellThePolicy() {
        ScriptedPolicy policy = new ScriptedPolicy(StrategySpec.single());
        StrategySwitcher switcher = switcher(policy, AdaptiveMode.AUTO, null);
        this.backend.failOpens.set(true);

        window(switcher, 10);

        assertThat(this.template.stats().activeStrategy()).isEqualTo(StrategySpec.multi(4, SelectorType.ROUND_ROBIN));
        assertThat(this.events).singleElement().extracting(SwitchEvent::outcome).isEqualTo(SwitchEvent.Outcome.FAILED);
        assertThat(policy.applied).containsExactly(false);
    }

    @Test
    void theOldStrategyShouldCloseOnlyWhenItsLastCallCompletes() throws Exception {
        StrategySwitcher switcher = switcher(new ScriptedPolicy(StrategySpec.single()), AdaptiveMode.AUTO, null);
        CompletableFuture<byte[]> pending = new CompletableFuture<>();
        this.backend.holdNextGet.set(pending);
        CompletableFuture<byte[]> call = this.template.getAsync("held");

        Future<Decision> switching = this.executor.submit(() -> window(switcher, 0));
        await().atMost(Duration.ofSeconds(5)).until(() -> this.template.stats().activeStrategy().equals(StrategySpec.single()));

        assertThat(this.backend.openCount()).as("4 old connections still open while a call is in flight + 1 new").isEqualTo(5);
        pending.complete(new byte[] {9});
        assertThat(switching.get(5, TimeUnit.SECONDS).isSwitch()).isTrue();
        assertThat(call.join()).containsExactly(9);
        assertThat(this.backend.openCount()).isEqualTo(1);
    }

    /** Proposes {@code target} on every window (or nothing when null), and records what it is told. */
    @Test
    void everyWindowShouldBeKeptWithItsWallClockTimeAndStrategyUpToTheHistorysCapacity() {
        this.template.start();
        AtomicLong wallMillis = new AtomicLong(Instant.parse("2026-11-21T12:00:00Z").toEpochMilli());
        Clock ticking = new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(wallMillis.get());
            }
        };
        StrategySwitcher switcher = new StrategySwitcher(this.template, new ScriptedPolicy(null), Duration.ofSeconds(1),
                AdaptiveMode.AUTO, null, this.nanos::get, ticking, this.events::add, 64, 3);
        assertThat(switcher.windowHistory()).isEmpty();
        assertThat(switcher.latestWindow()).isNull();

        List<Long> calls = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            wallMillis.addAndGet(1_000);
            if (i == 3) {
                switcher.pin(StrategySpec.single());
            }
            window(switcher, i * 5);
            calls.add(switcher.state().lastWindow().calls());
        }

        // Four windows into a history of three: the first is gone, the others in order with the time each closed.
        assertThat(switcher.windowHistory()).extracting(entry -> entry.endEpochMillis() - Instant.parse("2026-11-21T12:00:00Z").toEpochMilli())
                .containsExactly(2_000L, 3_000L, 4_000L);
        assertThat(switcher.windowHistory()).extracting(entry -> entry.sample().calls()).containsExactlyElementsOf(calls.subList(1, 4));
        assertThat(switcher.windowHistory()).extracting(entry -> entry.sample().strategy())
                .containsExactly(StrategySpec.multi(4, SelectorType.ROUND_ROBIN), StrategySpec.single(), StrategySpec.single());
        assertThat(switcher.latestWindow()).isEqualTo(switcher.windowHistory().get(2));
        assertThat(switcher.latestWindow().sample()).isSameAs(switcher.state().lastWindow());
    }

    @Test
    void theHistoryShouldCoverItsSpanInWholeWindowsWithinItsBound() {
        assertThat(StrategySwitcher.historyWindows(Duration.ofMinutes(5), Duration.ofSeconds(1))).isEqualTo(300);
        assertThat(StrategySwitcher.historyWindows(Duration.ofSeconds(10), Duration.ofSeconds(3))).as("rounded up").isEqualTo(4);
        assertThat(StrategySwitcher.historyWindows(Duration.ofMillis(1), Duration.ofSeconds(1))).isEqualTo(1);
        assertThat(StrategySwitcher.historyWindows(Duration.ofDays(1), Duration.ofSeconds(1))).isEqualTo(StrategySwitcher.MAX_HISTORY_WINDOWS);
        assertThatIllegalArgumentException().isThrownBy(() -> StrategySwitcher.historyWindows(Duration.ofDays(1).plusSeconds(1),
                Duration.ofSeconds(1))).withMessageContaining("86400");
        assertThatIllegalArgumentException().isThrownBy(() -> StrategySwitcher.historyWindows(Duration.ZERO, Duration.ofSeconds(1)));
        assertThatIllegalArgumentException().isThrownBy(() -> new StrategySwitcher(this.template, new ScriptedPolicy(null),
                Duration.ofSeconds(1), AdaptiveMode.AUTO, null, this.nanos::get, this.wall, this.events::add, 64, 0));
        // Without a capacity, five minutes of windows, but never more than the bound: a 1 ms window is not refused.
        new StrategySwitcher(this.template, new ScriptedPolicy(null), Duration.ofMillis(1), AdaptiveMode.AUTO, null, this.nanos::get,
                this.wall, this.events::add).close();
    }

    static final class ScriptedPolicy implements StrategyPolicy {

        final List<Boolean> applied = new ArrayList<>();
        private final StrategySpec target;

        ScriptedPolicy(StrategySpec target) {
            this.target = target;
        }

        @Override
        public Decision decide(WindowSample window, long nowNanos) {
            return this.target == null || this.target.equals(window.strategy())
                    ? Decision.stay(nowNanos, window.strategy(), DecisionReason.STEADY, "scripted")
                    : new Decision(nowNanos, window.strategy(), this.target, DecisionReason.CONNECTIONS_IDLE, "scripted");
        }

        @Override
        public void onSwitch(Decision decision, boolean applied, boolean trial, long nowNanos) {
            this.applied.add(applied);
        }
    }
}
