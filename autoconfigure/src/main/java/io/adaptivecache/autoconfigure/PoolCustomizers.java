package io.adaptivecache.autoconfigure;

import java.util.List;

import io.adaptivecache.strategy.PoolConfigCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.ClassUtils;

/** Applies {@link CachePoolCustomizer} beans, when commons-pool2 is present. */
final class PoolCustomizers {

    private static final boolean POOL_PRESENT = ClassUtils.isPresent("org.apache.commons.pool2.impl.GenericObjectPool",
            PoolCustomizers.class.getClassLoader());

    private PoolCustomizers() {
    }

    static PoolConfigCustomizer forTemplate(String templateName, ObjectProvider<CachePoolCustomizer> customizers) {
        if (!POOL_PRESENT) {
            return PoolConfigCustomizer.NONE;
        }
        List<CachePoolCustomizer> ordered = customizers.orderedStream().toList();
        return config -> ordered.forEach(customizer -> customizer.customize(templateName, config));
    }
}
