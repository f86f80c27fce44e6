package io.adaptivecache.benchmarks.targets;

import java.time.Duration;

import io.adaptivecache.autoconfigure.AdaptiveCacheRedisProperties;
import io.adaptivecache.autoconfigure.AdaptiveCacheTemplateProperties;

/**
 * The adaptive switcher's timings of the template the starter builds when application.yml sets
 * nothing but the server: the {@value Targets#BOOT_DEFAULT} target's, whatever timings a run gives
 * the templates it builds itself. Read from the starter's own properties (both backends share
 * these defaults), so that the harness follows when a default changes.
 *
 * @param window how often the switcher samples and decides
 * @param dwell the least time between switches, and how long a proposal must hold
 * @param trial how long a new strategy is on trial
 */
public record BootDefaults(Duration window, Duration dwell, Duration trial) {

    /**
     * The starter's defaults.
     * @return the timings of a template whose {@code adaptive} section is not set
     */
    public static BootDefaults read() {
        AdaptiveCacheTemplateProperties.Adaptive adaptive = new AdaptiveCacheRedisProperties().getAdaptive();
        return new BootDefaults(adaptive.window(), adaptive.dwell(), adaptive.trial());
    }

    /**
     * The longest the policy takes to come to rest at a steady load: the first dwell, which counts
     * from the template's start and which a proposal must hold for, then the dwell after a switch
     * (its trial within it, or beyond it if longer), then two resting windows and a margin of three.
     * @return the settle limit of a warm-up
     */
    public Duration settleLimit() {
        Duration afterSwitch = this.trial.compareTo(this.dwell) > 0 ? this.trial : this.dwell;
        return this.dwell.plus(afterSwitch).plus(this.window.multipliedBy(5));
    }

    /**
     * The phase runs' settling goal on these timings: a switch within the dwell and five windows
     * of a load change.
     * @return the bound
     */
    public Duration settleBound() {
        return this.dwell.plus(this.window.multipliedBy(5));
    }

    /** @return for reports, for example {@code window 1 s, dwell 60 s, trial 30 s} */
    public String describe() {
        return "window " + seconds(this.window) + ", dwell " + seconds(this.dwell) + ", trial " + seconds(this.trial);
    }

    private static String seconds(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
