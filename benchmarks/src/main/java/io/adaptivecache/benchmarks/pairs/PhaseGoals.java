package io.adaptivecache.benchmarks.pairs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.adaptivecache.benchmarks.load.Backend;
import io.adaptivecache.benchmarks.pairs.Goal.Measure;
import io.adaptivecache.benchmarks.targets.Targets;

/**
 * What a phase run compares on each backend: the adaptive template the harness builds and the one
 * a Spring Boot service gets from the starter ({@value Targets#BOOT_DEFAULT}, on the production
 * timings) against our best fixed configuration and against the best peer, phase by phase; and in
 * a surge sequence the Boot-built default against the fixed MULTI(N) it starts on. Thresholds are
 * by caller count (every phase has one).
 */
final class PhaseGoals {

    /** Rows of this panel compare the figures of the phase's second half, after settling. */
    static final String SETTLED_FIXED = "adaptive ÷ our best fixed configuration, after settling";

    /** Against the peers a user would pick, after settling. */
    static final String SETTLED_PEER = "adaptive ÷ the best peer, after settling";

    /** The Boot-built default against our best fixed configuration, after settling. */
    static final String BOOT_SETTLED_FIXED = "Boot-built default ÷ our best fixed configuration, after settling";

    /** The Boot-built default against the peers a user would pick, after settling. */
    static final String BOOT_SETTLED_PEER = "Boot-built default ÷ the best peer as users run it, after settling";

    /** Rows of this panel compare whole phases, settling included. */
    static final String WHOLE_FIXED = "adaptive ÷ our best fixed configuration, whole phase";

    /** The Redis template a user gets from the starter: adaptive, Jedis for blocking pools, io_uring where the machine has it. */
    static final String REDIS_DEFAULT = "ours-adaptive-jedis@io_uring";

    static final List<String> REDIS_FIXED = List.of("ours-single@io_uring", "ours-multi@io_uring", "ours-jedis-pooled-8",
            "ours-jedis-pooled-50");

    static final List<String> REDIS_PEERS = List.of("jedis-pool-8", "jedis-pool-50", "lettuce-single@nio");

    static final List<String> MEMCACHED_ADAPTIVE = List.of("ours-adaptive", "ours-x-adaptive");

    static final List<String> MEMCACHED_FIXED = List.of("ours-single", "ours-multi", "ours-x-single", "ours-x-multi");

    static final List<String> MEMCACHED_PEERS = List.of("xmemcached");

    private static final Map<Integer, Double> FIXED = Map.of(1, 0.95, 4, 0.95, 8, 0.95, 50, 0.95, 200, 0.95);

    private static final Map<Integer, Double> WHOLE = Map.of(1, 0.85, 4, 0.85, 8, 0.85, 50, 0.85, 200, 0.85);

    /** At 50 and 200 callers the Redis goal over the peers as users run them is 1.3x; elsewhere parity. */
    private static final Map<Integer, Double> REDIS_OVER_PEERS = Map.of(1, 1.0, 4, 1.0, 8, 1.0, 50, 1.3, 200, 1.3);

    private static final Map<Integer, Double> PARITY = Map.of(1, 1.0, 4, 1.0, 8, 1.0, 50, 1.0, 200, 1.0);

    private PhaseGoals() {
    }

    /**
     * The targets a backend's phase run measures, numerators first.
     * @param backend the server
     * @return the target ids
     */
    static List<String> targets(Backend backend) {
        List<String> targets = new ArrayList<>(adaptive(backend));
        targets.addAll(fixed(backend));
        targets.addAll(backend == Backend.REDIS ? REDIS_PEERS : MEMCACHED_PEERS);
        return targets;
    }

    /**
     * The targets a sequence measures on a backend, numerators first: a surge sequence the
     * Boot-built default and its reference alone, every other one all of {@link #targets(Backend)}.
     * @param backend the server
     * @param plan the sequence
     * @return the target ids
     */
    static List<String> targets(Backend backend, PhasePlan plan) {
        return plan.surge() ? List.of(Targets.BOOT_DEFAULT, surgeReference(backend)) : targets(backend);
    }

    /**
     * The self-tuning targets of a backend: the ones whose settling and switches are judged.
     * @param backend the server
     * @return the ids: the harness's own adaptive templates, then the Boot-built default
     */
    static List<String> adaptive(Backend backend) {
        List<String> adaptive = new ArrayList<>(harnessBuilt(backend));
        adaptive.add(Targets.BOOT_DEFAULT);
        return adaptive;
    }

    /** The adaptive templates the harness builds itself, on the run's timings. */
    private static List<String> harnessBuilt(Backend backend) {
        return backend == Backend.REDIS ? List.of(REDIS_DEFAULT) : MEMCACHED_ADAPTIVE;
    }

    private static List<String> fixed(Backend backend) {
        return backend == Backend.REDIS ? REDIS_FIXED : MEMCACHED_FIXED;
    }

    /**
     * The goals on figures after settling.
     * @param backend the server
     * @return the rows
     */
    static List<Goal> settled(Backend backend) {
        List<Goal> goals = new ArrayList<>();
        List<String> peers = backend == Backend.REDIS ? REDIS_PEERS : MEMCACHED_PEERS;
        for (String adaptive : harnessBuilt(backend)) {
            goals.add(goal(adaptive, SETTLED_FIXED, backend, fixed(backend), FIXED));
            goals.add(goal(adaptive, SETTLED_PEER, backend, peers, backend == Backend.REDIS ? REDIS_OVER_PEERS : PARITY));
        }
        goals.add(goal(Targets.BOOT_DEFAULT, BOOT_SETTLED_FIXED, backend, fixed(backend), GoalSet.BOOT_OVER_FIXED));
        goals.add(goal(Targets.BOOT_DEFAULT, BOOT_SETTLED_PEER, backend, peers, GoalSet.BOOT_OVER_PEERS));
        return goals;
    }

    /**
     * The goals on whole phases.
     * @param backend the server
     * @return the rows
     */
    static List<Goal> whole(Backend backend) {
        List<Goal> goals = new ArrayList<>();
        for (String adaptive : harnessBuilt(backend)) {
            goals.add(goal(adaptive, WHOLE_FIXED, backend, fixed(backend), WHOLE));
        }
        return goals;
    }

    /**
     * What the Boot-built default is held to after a surge: the fixed MULTI(N) it starts on
     * (N = processors), on the transport the starter picks for Redis.
     * @param backend the server
     * @return the reference's id
     */
    static String surgeReference(Backend backend) {
        return backend == Backend.REDIS ? "ours-multi@io_uring" : "ours-multi";
    }

    /**
     * The surge goal of a backend.
     * @param backend the server
     * @return the Boot-built default against its reference, from 3 s after the step, at least 0.9x every second and no
     *         failed call
     */
    static SurgeGoal surge(Backend backend) {
        return new SurgeGoal(Targets.BOOT_DEFAULT, surgeReference(backend), Duration.ofSeconds(3), 0.9);
    }

    private static Goal goal(String numerator, String panel, Backend backend, List<String> bestOf, Map<Integer, Double> thresholds) {
        return new Goal(numerator + " " + panel.substring(panel.indexOf('÷')), panel, backend, numerator, bestOf, Measure.THROUGHPUT,
                thresholds, false);
    }
}
