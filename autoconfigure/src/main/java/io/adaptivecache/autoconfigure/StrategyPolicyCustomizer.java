package io.adaptivecache.autoconfigure;

import io.adaptivecache.adaptive.ThresholdStrategyPolicy;

/**
 * Adjusts the default policy ({@link ThresholdStrategyPolicy}) of a template's adaptive
 * switcher after its {@code adaptive-cache.<template>.adaptive.*} properties are applied, for
 * settings that have no property (such as {@code growAbove} or {@code trialTolerance}) or that
 * are computed. Beans are applied in {@code @Order}, each time a switcher is created (when the
 * context starts). Not applied to a policy that a {@link StrategyPolicyProvider} supplies.
 *
 * <pre>{@code
 * @Bean
 * StrategyPolicyCustomizer patientTrials() {
 *     return (template, policy) -> policy.trialTolerance(0.25);
 * }
 * }</pre>
 */
@FunctionalInterface
public interface StrategyPolicyCustomizer {

    /**
     * Adjusts the policy of one template.
     * @param templateName the template's name, such as {@code redis} or {@code memcached}
     * @param policy the builder, holding what the properties set
     */
    void customize(String templateName, ThresholdStrategyPolicy.Builder policy);
}
