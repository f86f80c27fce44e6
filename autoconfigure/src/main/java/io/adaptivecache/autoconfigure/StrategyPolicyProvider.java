package io.adaptivecache.autoconfigure;

import java.util.Objects;
import java.util.function.Supplier;

import io.adaptivecache.adaptive.StrategyPolicy;
import org.jspecify.annotations.Nullable;

/**
 * Supplies an application's own {@link StrategyPolicy} for the adaptive switcher of some
 * templates, in place of the default {@link io.adaptivecache.adaptive.ThresholdStrategyPolicy}.
 * Declare one bean per policy; each is asked, in {@code @Order}, for every template when its
 * switcher is created (when the context starts), and the first that answers wins. A template no
 * provider answers for keeps the default policy, configured by its
 * {@code adaptive-cache.<template>.adaptive.*} properties and {@link StrategyPolicyCustomizer}s.
 * The switcher's own settings (window, mode, connection limit, history, a pinned strategy) still
 * come from the properties.
 *
 * <pre>{@code
 * @Bean
 * StrategyPolicyProvider redisPolicy() {
 *     return StrategyPolicyProvider.forTemplate("redis", MyRedisPolicy::new);
 * }
 * }</pre>
 *
 * <p>A policy keeps the history of its decisions and belongs to one switcher, so a provider
 * returns a new one on each call rather than a shared instance.
 */
@FunctionalInterface
public interface StrategyPolicyProvider {

    /**
     * The policy of a template, or none.
     * @param templateName the template's name, such as {@code redis} or {@code memcached}
     * @return a new policy for that template, or {@code null} to leave it to the next provider
     *         and then to the default policy
     */
    @Nullable StrategyPolicy policyFor(String templateName);

    /**
     * A provider that answers for one template only.
     * @param templateName the template's name, such as {@code redis}
     * @param policies makes a new policy each time it is called
     * @return the provider
     */
    static StrategyPolicyProvider forTemplate(String templateName, Supplier<? extends StrategyPolicy> policies) {
        Objects.requireNonNull(templateName, "templateName");
        Objects.requireNonNull(policies, "policies");
        return name -> templateName.equals(name) ? policies.get() : null;
    }
}
