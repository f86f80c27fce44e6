package io.adaptivecache.strategy;

import java.time.Duration;

/**
 * What one strategy switch did.
 *
 * @param from the strategy that was replaced
 * @param to the strategy now serving calls
 * @param warmUp time spent opening the new strategy's connections, before it served a call
 * @param drain time the old strategy took to finish the calls it had in flight
 * @param drainedCleanly whether every call on the old strategy finished before it was closed
 *     ({@code false} if the drain timeout passed first)
 */
public record SwitchReport(StrategySpec from, StrategySpec to, Duration warmUp, Duration drain, boolean drainedCleanly) {

    /**
     * Whether the strategy actually changed.
     * @return {@code false} if the requested strategy was already live
     */
    public boolean changed() {
        return !from.equals(to);
    }
}
