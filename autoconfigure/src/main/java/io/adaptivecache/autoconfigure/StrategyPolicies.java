package io.adaptivecache.autoconfigure;

import java.util.List;

import io.adaptivecache.adaptive.StrategyPolicy;
import io.adaptivecache.adaptive.ThresholdStrategyPolicy;

/**
 * Chooses the policy of each template's switcher: the first {@link StrategyPolicyProvider} that
 * answers for the template, else a {@link ThresholdStrategyPolicy} built from the template's own
 * {@code adaptive} properties and adjusted by every {@link StrategyPolicyCustomizer}.
 */
final class StrategyPolicies {

    private final List<StrategyPolicyProvider> providers;
    private final List<StrategyPolicyCustomizer> customizers;

    StrategyPolicies(List<StrategyPolicyProvider> providers, List<StrategyPolicyCustomizer> customizers) {
        this.providers = List.copyOf(providers);
        this.customizers = List.copyOf(customizers);
    }

    /**
     * A new policy for a template.
     * @param settings the template's settings (the defaults for a template no property configures): its name, which
     *        providers and customizers are told, its prefix for messages, its adaptive section, its connection limit and
     *        the selector of the MULTI strategies the policy proposes ({@code strategy.multi.selector})
     * @param blockingConnections whether the template's POOLED strategies run on blocking connections
     * @param threadPerSharedConnection whether each of the template's shared connections runs an I/O thread of its own,
     *        so that the default policy tries fewer of them at the cap (a customizer may turn that off)
     */
    StrategyPolicy policyFor(TemplateSettings settings, boolean blockingConnections, boolean threadPerSharedConnection) {
        String templateName = settings.name();
        for (StrategyPolicyProvider provider : this.providers) {
            StrategyPolicy policy = provider.policyFor(templateName);
            if (policy != null) {
                return policy;
            }
        }
        ThresholdStrategyPolicy.Builder builder = defaultPolicy(settings.prefix() + ".adaptive", settings.adaptive(), blockingConnections)
                .selector(settings.selector()).triesFewerConnections(threadPerSharedConnection);
        this.customizers.forEach(customizer -> customizer.customize(templateName, builder));
        ThresholdStrategyPolicy policy = builder.build();
        // The switcher refuses an operator's request above the limit; the policy must not propose one either.
        int limit = settings.connectionLimit();
        if (policy.settings().maxConnections() > limit
                || (policy.blockingPool() != null && policy.blockingPool().poolSize() > limit)) {
            throw new IllegalStateException("A StrategyPolicyCustomizer gave the policy of template '" + templateName
                    + "' more connections than " + settings.prefix() + ".adaptive.connection-limit (" + limit + ") allows");
        }
        return policy;
    }

    /**
     * The default policy as the template's adaptive properties (checked when bound) set it, before customizers.
     * @param prefix the adaptive section's prefix, such as {@code adaptive-cache.redis.adaptive}, for messages
     * @param adaptive the adaptive section
     * @param blockingConnections whether the template's POOLED strategies run on blocking connections, the only
     *        ones its blocking-pool settings apply to (and are checked for)
     */
    static ThresholdStrategyPolicy.Builder defaultPolicy(String prefix, AdaptiveCacheTemplateProperties.Adaptive adaptive,
            boolean blockingConnections) {
        ThresholdStrategyPolicy.Builder builder = ThresholdStrategyPolicy.builder();
        int limit = adaptive.connectionLimit();
        // Unset, one connection per processor, but never above the limit.
        int defaultCap = builder.settings().maxConnections();
        builder.maxConnections(adaptive.maxConnections() != null ? adaptive.maxConnections() : Math.min(defaultCap, limit))
                .minCallsPerWindow(adaptive.minCallsPerWindow()).dwell(adaptive.dwell()).trial(adaptive.trial())
                .maxSwitchesPerHour(adaptive.maxSwitchesPerHour());
        // A template with blocking POOLED connections lets the policy move a few callers onto them.
        if (blockingConnections && adaptive.blockingPool().enabled()) {
            ThresholdStrategyPolicy.BlockingPool blockingPool = blockingPool(prefix + ".blocking-pool", adaptive.blockingPool());
            if (blockingPool.poolSize() > limit) {
                throw new InvalidAdaptiveCachePropertyException(prefix + ".blocking-pool.pool-size", blockingPool.poolSize(),
                        "it must be at most " + prefix + ".connection-limit (" + limit + ")");
            }
            builder.blockingPool(blockingPool);
        }
        return builder;
    }

    /** The blocking pool's settings, checked here: only a template with blocking connections reads them. */
    static ThresholdStrategyPolicy.BlockingPool blockingPool(String prefix, AdaptiveCacheTemplateProperties.BlockingPool settings) {
        settings.validate(prefix);
        long largeValueBytes = settings.largeValueSize() == null ? ThresholdStrategyPolicy.BlockingPool.DEFAULT_LARGE_VALUE_BYTES
                : settings.largeValueSize().toBytes();
        return new ThresholdStrategyPolicy.BlockingPool(settings.maxConcurrency(), settings.maxMeanLatency(),
                settings.poolSize(), settings.maxWait(), largeValueBytes, settings.maxRoundTrip());
    }
}
