package io.adaptivecache.autoconfigure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.adaptivecache.CacheTemplate;
import io.adaptivecache.management.ManagedCacheTemplate;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The managed cache templates of an application context, as the lifecycle, the switchers, the
 * health contributor, the meters and the observations all see them: every bean that is a
 * {@link ManagedCacheTemplate}, the auto-configured ones and the application's own alike, each
 * once. Beans are looked up as {@link CacheTemplate} and kept if they are managed, so a template
 * built by a builder is managed even when its {@code @Bean} method declares the narrower
 * {@link CacheTemplate}; a {@link CacheTemplate} of the application's own making (a decorator,
 * say) is left alone.
 */
public final class CacheTemplateBeans {

    private CacheTemplateBeans() {
    }

    /**
     * The managed templates among the beans, in bean order, each instance once.
     * @param beans the context's {@link CacheTemplate} beans
     * @return the managed templates
     * @throws IllegalStateException if two managed templates share a name: their switchers,
     *     meters, health indicators and endpoint entries are keyed by it
     */
    public static List<ManagedCacheTemplate> managed(ObjectProvider<CacheTemplate> beans) {
        // One instance may be registered under two names (an alias bean); it is one template to start and watch.
        Set<ManagedCacheTemplate> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Map<String, ManagedCacheTemplate> byName = new LinkedHashMap<>();
        List<ManagedCacheTemplate> managed = new ArrayList<>();
        beans.orderedStream().forEach(bean -> {
            if (bean instanceof ManagedCacheTemplate template && seen.add(template)) {
                ManagedCacheTemplate other = byName.putIfAbsent(template.name(), template);
                if (other != null) {
                    throw new IllegalStateException("Two cache templates are named '" + template.name() + "' (" + other + " and "
                            + template + "); their switchers, meters, health indicators and endpoint entries are keyed by"
                            + " the name, so give each its own with the builder's name(...)");
                }
                managed.add(template);
            }
        });
        return List.copyOf(managed);
    }
}
