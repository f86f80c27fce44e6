package io.adaptivecache.adaptive;

import java.time.Instant;
import java.util.List;

import io.adaptivecache.metrics.WindowSample;
import io.adaptivecache.strategy.StrategySpec;
import org.jspecify.annotations.Nullable;

/**
 * A switcher's state, for the Actuator endpoint and health.
 *
 * @param template the template's name
 * @param mode the configured mode
 * @param pinned the strategy pinned by configuration or an operator, or {@code null}
 * @param active the live strategy
 * @param since when the live strategy went live
 * @param lastDecision the policy's last decision, or {@code null} before the first window
 * @param lastWindow the last window's figures, or {@code null}
 * @param history recent switches, oldest first
 * @param suppressed whether changes are suspended for flapping
 */
public record AdaptiveState(String template, AdaptiveMode mode, @Nullable StrategySpec pinned, StrategySpec active, Instant since,
        @Nullable Decision lastDecision, @Nullable WindowSample lastWindow, List<SwitchEvent> history, boolean suppressed) {
}
