package io.adaptivecache.autoconfigure;

import java.lang.reflect.Method;

import io.adaptivecache.spring.cache.JsonCacheValueSerializer;
import net.spy.memcached.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime hints cover what the starter reaches by name or reflection, and are found where
 * Spring's AOT processing looks for them ({@code META-INF/spring/aot.factories}).
 */
class AdaptiveCacheRuntimeHintsTests {

    private final RuntimeHints hints = registered();

    @Test
    void theRegistrarShouldBeListedInAotFactories() {
        assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories").load(RuntimeHintsRegistrar.class))
                .hasAtLeastOneElementOfType(AdaptiveCacheRuntimeHints.class);
    }

    @Test
    void theNettyTransportProbesShouldBeInvocable() {
        for (String probe : AdaptiveCacheRuntimeHints.NETTY_TRANSPORT_PROBES) {
            assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(probe))).accepts(this.hints);
            assertThat(this.hints.reflection().getTypeHint(TypeReference.of(probe)).methods())
                    .as("invocable methods of " + probe).filteredOn(method -> method.getMode() == org.springframework.aot.hint.ExecutableMode.INVOKE)
                    .extracting(org.springframework.aot.hint.ExecutableHint::getName)
                    .containsExactlyInAnyOrder("isAvailable", "unavailabilityCause");
        }
    }

    @Test
    void theClassesCheckedByNameShouldBeRegistered() {
        for (String name : AdaptiveCacheRuntimeHints.PRESENCE_CHECKS) {
            assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(name))).as(name).accepts(this.hints);
        }
    }

    @Test
    void theWeightedKetamaProxyShouldBeCovered() throws Exception {
        assertThat(RuntimeHintsPredicates.proxies().forInterfaces(ConnectionFactory.class)).accepts(this.hints);
        Method delegated = ConnectionFactory.class.getMethod("getOpQueueMaxBlockTime");
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(delegated)).accepts(this.hints);
    }

    @Test
    void theBasicValueTypesShouldBeBuildable() throws Exception {
        assertThat(JsonCacheValueSerializer.basicTypes()).contains("java.util.LinkedList");
        for (String name : JsonCacheValueSerializer.basicTypes()) {
            assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(name))).as(name).accepts(this.hints);
        }
        assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(java.util.LinkedList.class.getConstructor()))
                .accepts(this.hints);
    }

    private static RuntimeHints registered() {
        RuntimeHints hints = new RuntimeHints();
        new AdaptiveCacheRuntimeHints().registerHints(hints, AdaptiveCacheRuntimeHintsTests.class.getClassLoader());
        return hints;
    }
}
