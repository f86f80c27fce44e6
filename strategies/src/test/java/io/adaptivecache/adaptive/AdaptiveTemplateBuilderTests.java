package io.adaptivecache.adaptive;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.adaptivecache.CacheConnectionException;
import io.adaptivecache.management.ManagedCacheTemplate;
import io.adaptivecache.strategy.SelectorType;
import io.adaptivecache.strategy.StrategySpec;
import io.adaptivecache.template.AbstractCacheTemplateBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A template built with {@code adaptive(options, registry)} on the core builder alone: it makes
 * its switcher from the options when it starts, registers it by name, lets it act on its own
 * thread, and closes and removes it when it closes. On in-memory connections, a scripted policy
 * and fake clocks.
 */
class AdaptiveTemplateBuilderTests {

    private static final String NAME = "adaptive-builder";
    private static final long FAKE_NANOS = 7_000_000_000L;
    private static final StrategySpec INITIAL = StrategySpec.multi(4, SelectorType.ROUND_ROBIN);

    private final InMemoryBackend backend = new InMemoryBackend();
    private final SwitcherRegistry registry = new SwitcherRegistry();
    private final Clock wall = Clock.fixed(Instant.parse("2026-11-21T12:00:00Z"), ZoneOffset.UTC);
    private final List<SwitchEvent> events = new CopyOnWriteArrayList<>();
    private final List<String> factoryCalls = new CopyOnWriteArrayList<>();
    // Read by the test only after the switcher's thread is seen to have acted (or closed).
    private final ScriptedPolicy policy = new ScriptedPolicy().proposing(StrategySpec.single(), DecisionReason.CONNECTIONS_IDLE);
    private ManagedCacheTemplate template;

    @AfterEach
    void close() {
        if (this.template != null) {
            this.template.close();
        }
    }

    /** Short real windows, so that the switcher's own thread acts soon; the policy's and the events' clocks are fake. */
    private SwitcherOptions options() {
        return SwitcherOptions.defaults().withWindow(Duration.ofMillis(20)).withHistoryWindows(10)
                .withPolicy((pooledConnectionsBlock, connectionLimit) -> {
                    this.factoryCalls.add("blocking=" + pooledConnectionsBlock + " limit=" + connectionLimit);
                    return this.policy;
                })
                .withListener(this.events::add).withClocks(() -> FAKE_NANOS, this.wall);
    }

    private ManagedCacheTemplate build(SwitcherOptions options) {
        this.template = this.backend.builder().name(NAME).strategy(INITIAL).drainTimeout(Duration.ofSeconds(1)).connectionLimit(6)
                .adaptive(options, this.registry).build();
        return this.template;
    }

    @Test
    void startShouldStartTheSwitcherThatActsOnItsPolicyAndRegisterItByName() {
        ManagedCacheTemplate built = build(options());
        assertThat(this.registry.get(NAME)).as("made when the template starts, not when it is built").isNull();
        assertThat(AbstractCacheTemplateBuilder.hasOwnSwitcher(built)).isTrue();

        built.start();

        StrategySwitcher switcher = this.registry.get(NAME);
        assertThat(switcher).as("registered under the template's name").isNotNull();
        assertThat(this.registry.all()).containsExactly(switcher);
        assertThat(switcher.template()).isSameAs(built);
        assertThat(switcher.policy()).isSameAs(this.policy);
        assertThat(this.factoryCalls).as("the policy made once, told the template's connections and the builder's limit")
                .containsExactly("blocking=false limit=6");
        assertThat(switcher.connectionLimit()).as("the builder's connection limit").isEqualTo(6);
        assertThat(switcher.window()).isEqualTo(Duration.ofMillis(20));
        assertThat(switcher.windowHistoryCapacity()).isEqualTo(10);
        // Nobody calls evaluate() here: only the switcher's own thread, started with the template, can switch.
        await("the switcher's thread carrying out the policy's switch").atMost(Duration.ofSeconds(10))
                .until(() -> built.stats().activeStrategy().equals(StrategySpec.single()) && !this.events.isEmpty());
        assertThat(this.events.get(0)).satisfies(event -> {
            assertThat(event.template()).isEqualTo(NAME);
            assertThat(event.from()).isEqualTo(INITIAL);
            assertThat(event.to()).isEqualTo(StrategySpec.single());
            assertThat(event.at()).as("the options' wall clock").isEqualTo(this.wall.instant());
        });
        assertThat(switcher.state().lastDecision().atNanos()).as("the options' nano clock").isEqualTo(FAKE_NANOS);
    }

    @Test
    void closeShouldCloseTheSwitcherAndUnregisterIt() {
        ManagedCacheTemplate built = build(options());
        built.start();
        await("the switcher's thread").atMost(Duration.ofSeconds(10)).until(AdaptiveTemplateBuilderTests::switcherThreadAlive);

        built.close();

        assertThat(this.registry.get(NAME)).as("removed from the registry").isNull();
        assertThat(this.registry.all()).isEmpty();
        await("the switcher's thread ended").atMost(Duration.ofSeconds(10)).until(() -> !switcherThreadAlive());
    }

    @Test
    void aTemplateThatCannotConnectShouldLeaveNoSwitcher() {
        ManagedCacheTemplate built = build(options());
        this.backend.failOpens.set(true);

        assertThatThrownBy(built::start).isInstanceOf(CacheConnectionException.class);

        assertThat(this.registry.all()).as("the switcher made for it is removed again").isEmpty();
        assertThat(switcherThreadAlive()).as("and never started").isFalse();
    }

    @Test
    void aPolicyThatCannotBeMadeShouldFailTheStartBeforeAnyConnectionOpens() {
        ManagedCacheTemplate built = build(options().withPolicy((blocking, limit) -> {
            throw new IllegalStateException("no policy for you");
        }));

        assertThatIllegalStateException().isThrownBy(built::start).withMessage("no policy for you");

        assertThat(this.backend.opened).isEmpty();
        assertThat(this.registry.all()).isEmpty();
    }

    @Test
    void aTemplateBuiltWithoutOptionsShouldHaveNoSwitcherOfItsOwn() {
        this.template = this.backend.builder().name(NAME).strategy(INITIAL).build();
        this.template.start();

        assertThat(AbstractCacheTemplateBuilder.hasOwnSwitcher(this.template)).isFalse();
        assertThat(switcherThreadAlive()).isFalse();
    }

    @Test
    void theDefaultsShouldBeWhatTheStarterGivesATemplateNoPropertyConfigures() {
        SwitcherOptions defaults = SwitcherOptions.defaults();

        assertThat(defaults.mode()).isEqualTo(AdaptiveMode.AUTO);
        assertThat(defaults.window()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.pinned()).isNull();
        assertThat(defaults.historyWindows()).as("five minutes of one-second windows").isEqualTo(300);
        ThresholdStrategyPolicy capped = (ThresholdStrategyPolicy) defaults.policy().create(false, 1);
        assertThat(capped.settings().maxConnections()).as("never above the template's limit").isEqualTo(1);
        assertThat(capped.settings().withMaxConnections(ThresholdStrategyPolicy.Settings.defaults().maxConnections()))
                .isEqualTo(ThresholdStrategyPolicy.Settings.defaults());
        assertThat(capped.blockingPool()).isNull();
        ThresholdStrategyPolicy blocking = (ThresholdStrategyPolicy) defaults.policy().create(true, 64);
        assertThat(blocking.blockingPool()).as("blocking connections").isEqualTo(ThresholdStrategyPolicy.BlockingPool.DEFAULTS);
        assertThat(((ThresholdStrategyPolicy) defaults.policy().create(true, 19)).blockingPool())
                .as("a limit below the blocking pool's size").isNull();
        assertThat(defaults.policy().create(false, 64)).as("a new policy each time, as each keeps state")
                .isNotSameAs(defaults.policy().create(false, 64));
    }

    private static boolean switcherThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(thread -> thread.isAlive() && thread.getName().equals("adaptive-cache-switcher-" + NAME));
    }
}
