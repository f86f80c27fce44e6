package io.adaptivecache.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.TypeDescriptor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every property in the generated configuration metadata, set to a value that is not its default,
 * reaches its properties class ({@link #SECTIONS}): read back through its getters, it is the value given.
 * The metadata is read from this module's build output, so a property added to the code without a
 * row in {@link #VALUES} fails here, by name, until one is added.
 */
class AdaptiveCachePropertiesBindingTests {

    /**
     * One non-default value per property. A map property has one entry, under its name plus
     * {@code .products}. Add a row for every new property.
     */
    static final Map<String, String> VALUES = Map.ofEntries(
            Map.entry("adaptive-cache.cache.allow-null-values", "false"),
            Map.entry("adaptive-cache.cache.backend", "memcached"),
            Map.entry("adaptive-cache.cache.backends.products", "memcached"),
            Map.entry("adaptive-cache.cache.default-ttl", "104s"),
            Map.entry("adaptive-cache.cache.enabled", "false"),
            Map.entry("adaptive-cache.cache.json.allowed-packages", "com.example.catalog"),
            Map.entry("adaptive-cache.cache.key-prefix", "v6"),
            Map.entry("adaptive-cache.cache.near.caches.products.time-to-live", "33s"),
            Map.entry("adaptive-cache.cache.near.enabled", "true"),
            Map.entry("adaptive-cache.cache.near.heartbeat-interval", "301ms"),
            Map.entry("adaptive-cache.cache.near.heartbeat-timeout", "302ms"),
            Map.entry("adaptive-cache.cache.near.max-staleness", "303ms"),
            Map.entry("adaptive-cache.cache.near.maximum-entries", "304"),
            Map.entry("adaptive-cache.cache.near.maximum-weight", "305KB"),
            Map.entry("adaptive-cache.cache.near.time-to-live", "306s"),
            Map.entry("adaptive-cache.cache.on-error", "rethrow"),
            Map.entry("adaptive-cache.cache.serializer", "jdk"),
            Map.entry("adaptive-cache.cache.ttl.products", "109s"),
            Map.entry("adaptive-cache.memcached.adaptive.blocking-pool.enabled", "false"),
            Map.entry("adaptive-cache.memcached.adaptive.blocking-pool.large-value-size", "111KB"),
            Map.entry("adaptive-cache.memcached.adaptive.blocking-pool.max-concurrency", "32.5"),
            Map.entry("adaptive-cache.memcached.adaptive.blocking-pool.max-mean-latency", "113s"),
            Map.entry("adaptive-cache.memcached.adaptive.blocking-pool.max-round-trip", "114s"),
            Map.entry("adaptive-cache.memcached.adaptive.blocking-pool.max-wait", "115s"),
            Map.entry("adaptive-cache.memcached.adaptive.blocking-pool.pool-size", "46"),
            Map.entry("adaptive-cache.memcached.adaptive.connection-limit", "47"),
            Map.entry("adaptive-cache.memcached.adaptive.dwell", "118s"),
            Map.entry("adaptive-cache.memcached.adaptive.history", "7m"),
            Map.entry("adaptive-cache.memcached.adaptive.initial", "pooled"),
            Map.entry("adaptive-cache.memcached.adaptive.max-connections", "50"),
            Map.entry("adaptive-cache.memcached.adaptive.max-switches-per-hour", "51"),
            Map.entry("adaptive-cache.memcached.adaptive.min-calls-per-window", "1022"),
            Map.entry("adaptive-cache.memcached.adaptive.mode", "advise"),
            Map.entry("adaptive-cache.memcached.adaptive.trial", "124s"),
            Map.entry("adaptive-cache.memcached.adaptive.window", "125s"),
            Map.entry("adaptive-cache.memcached.connect-timeout", "126s"),
            Map.entry("adaptive-cache.memcached.drain-timeout", "127s"),
            Map.entry("adaptive-cache.memcached.driver", "xmemcached"),
            Map.entry("adaptive-cache.memcached.enabled", "false"),
            Map.entry("adaptive-cache.memcached.item-size-max", "130KB"),
            Map.entry("adaptive-cache.memcached.max-reconnect-delay", "131s"),
            Map.entry("adaptive-cache.memcached.operation-queue-size", "62"),
            Map.entry("adaptive-cache.memcached.operation-timeout", "133s"),
            Map.entry("adaptive-cache.memcached.password", "v34"),
            Map.entry("adaptive-cache.memcached.protocol", "text"),
            Map.entry("adaptive-cache.memcached.resilience.bulkhead.enabled", "true"),
            Map.entry("adaptive-cache.memcached.resilience.bulkhead.max-concurrent-calls", "67"),
            Map.entry("adaptive-cache.memcached.resilience.bulkhead.max-wait-duration", "138s"),
            Map.entry("adaptive-cache.memcached.resilience.bulkhead.name", "v39"),
            Map.entry("adaptive-cache.memcached.resilience.circuit-breaker.enabled", "false"),
            Map.entry("adaptive-cache.memcached.resilience.circuit-breaker.failure-rate-threshold", "61.5"),
            Map.entry("adaptive-cache.memcached.resilience.circuit-breaker.minimum-number-of-calls", "72"),
            Map.entry("adaptive-cache.memcached.resilience.circuit-breaker.name", "v43"),
            Map.entry("adaptive-cache.memcached.resilience.circuit-breaker.permitted-number-of-calls-in-half-open-state", "74"),
            Map.entry("adaptive-cache.memcached.resilience.circuit-breaker.sliding-window-size", "75"),
            Map.entry("adaptive-cache.memcached.resilience.circuit-breaker.slow-call-duration-threshold", "146s"),
            Map.entry("adaptive-cache.memcached.resilience.circuit-breaker.slow-call-rate-threshold", "67.5"),
            Map.entry("adaptive-cache.memcached.resilience.circuit-breaker.wait-duration-in-open-state", "148s"),
            Map.entry("adaptive-cache.memcached.resilience.on-failure", "degrade"),
            Map.entry("adaptive-cache.memcached.resilience.retry.enabled", "true"),
            Map.entry("adaptive-cache.memcached.resilience.retry.max-attempts", "81"),
            Map.entry("adaptive-cache.memcached.resilience.retry.name", "v52"),
            Map.entry("adaptive-cache.memcached.resilience.retry.wait-duration", "153s"),
            Map.entry("adaptive-cache.memcached.servers", "127.0.0.1:40054,127.0.0.1:41054"),
            Map.entry("adaptive-cache.memcached.strategy.multi.connections", "85"),
            Map.entry("adaptive-cache.memcached.strategy.multi.selector", "least-in-flight"),
            Map.entry("adaptive-cache.memcached.strategy.pool.max-idle", "87"),
            Map.entry("adaptive-cache.memcached.strategy.pool.max-total", "88"),
            Map.entry("adaptive-cache.memcached.strategy.pool.max-wait", "159s"),
            Map.entry("adaptive-cache.memcached.strategy.pool.min-idle", "90"),
            Map.entry("adaptive-cache.memcached.strategy.type", "pooled"),
            Map.entry("adaptive-cache.memcached.username", "v62"),
            Map.entry("adaptive-cache.observations.enabled", "true"),
            Map.entry("adaptive-cache.redis.adaptive.blocking-pool.enabled", "false"),
            Map.entry("adaptive-cache.redis.adaptive.blocking-pool.large-value-size", "164KB"),
            Map.entry("adaptive-cache.redis.adaptive.blocking-pool.max-concurrency", "85.5"),
            Map.entry("adaptive-cache.redis.adaptive.blocking-pool.max-mean-latency", "166s"),
            Map.entry("adaptive-cache.redis.adaptive.blocking-pool.max-round-trip", "167s"),
            Map.entry("adaptive-cache.redis.adaptive.blocking-pool.max-wait", "168s"),
            Map.entry("adaptive-cache.redis.adaptive.blocking-pool.pool-size", "99"),
            Map.entry("adaptive-cache.redis.adaptive.connection-limit", "100"),
            Map.entry("adaptive-cache.redis.adaptive.dwell", "171s"),
            Map.entry("adaptive-cache.redis.adaptive.history", "8m"),
            Map.entry("adaptive-cache.redis.adaptive.initial", "pooled"),
            Map.entry("adaptive-cache.redis.adaptive.max-connections", "103"),
            Map.entry("adaptive-cache.redis.adaptive.max-switches-per-hour", "104"),
            Map.entry("adaptive-cache.redis.adaptive.min-calls-per-window", "1075"),
            Map.entry("adaptive-cache.redis.adaptive.mode", "advise"),
            Map.entry("adaptive-cache.redis.adaptive.trial", "177s"),
            Map.entry("adaptive-cache.redis.adaptive.window", "178s"),
            Map.entry("adaptive-cache.redis.client-name", "v79"),
            Map.entry("adaptive-cache.redis.cluster.max-redirects", "110"),
            Map.entry("adaptive-cache.redis.cluster.node-breaker.failure-threshold", "9"),
            Map.entry("adaptive-cache.redis.cluster.node-breaker.open-duration", "3s"),
            Map.entry("adaptive-cache.redis.cluster.nodes", "127.0.0.1:40081,127.0.0.1:41081"),
            Map.entry("adaptive-cache.redis.cluster.read-from", "v82"),
            Map.entry("adaptive-cache.redis.cluster.refresh.adaptive", "false"),
            Map.entry("adaptive-cache.redis.cluster.refresh.period", "184s"),
            Map.entry("adaptive-cache.redis.coalesce-writes", "false"),
            Map.entry("adaptive-cache.redis.connect-timeout", "185s"),
            Map.entry("adaptive-cache.redis.database", "116"),
            Map.entry("adaptive-cache.redis.drain-timeout", "187s"),
            Map.entry("adaptive-cache.redis.enabled", "false"),
            Map.entry("adaptive-cache.redis.host", "v89"),
            Map.entry("adaptive-cache.redis.max-key-size", "190KB"),
            Map.entry("adaptive-cache.redis.max-reconnect-delay", "191s"),
            Map.entry("adaptive-cache.redis.max-value-size", "192KB"),
            Map.entry("adaptive-cache.redis.password", "v93"),
            Map.entry("adaptive-cache.redis.pooled-driver", "jedis"),
            Map.entry("adaptive-cache.redis.spring-data.enabled", "true"),
            Map.entry("adaptive-cache.redis.port", "125"),
            Map.entry("adaptive-cache.redis.request-queue-size", "126"),
            Map.entry("adaptive-cache.redis.resilience.bulkhead.enabled", "true"),
            Map.entry("adaptive-cache.redis.resilience.bulkhead.max-concurrent-calls", "128"),
            Map.entry("adaptive-cache.redis.resilience.bulkhead.max-wait-duration", "199s"),
            Map.entry("adaptive-cache.redis.resilience.bulkhead.name", "v100"),
            Map.entry("adaptive-cache.redis.resilience.circuit-breaker.enabled", "false"),
            Map.entry("adaptive-cache.redis.resilience.circuit-breaker.failure-rate-threshold", "122.5"),
            Map.entry("adaptive-cache.redis.resilience.circuit-breaker.minimum-number-of-calls", "133"),
            Map.entry("adaptive-cache.redis.resilience.circuit-breaker.name", "v104"),
            Map.entry("adaptive-cache.redis.resilience.circuit-breaker.permitted-number-of-calls-in-half-open-state", "135"),
            Map.entry("adaptive-cache.redis.resilience.circuit-breaker.sliding-window-size", "136"),
            Map.entry("adaptive-cache.redis.resilience.circuit-breaker.slow-call-duration-threshold", "207s"),
            Map.entry("adaptive-cache.redis.resilience.circuit-breaker.slow-call-rate-threshold", "128.5"),
            Map.entry("adaptive-cache.redis.resilience.circuit-breaker.wait-duration-in-open-state", "209s"),
            Map.entry("adaptive-cache.redis.resilience.on-failure", "degrade"),
            Map.entry("adaptive-cache.redis.resilience.retry.enabled", "true"),
            Map.entry("adaptive-cache.redis.resilience.retry.max-attempts", "142"),
            Map.entry("adaptive-cache.redis.resilience.retry.name", "v113"),
            Map.entry("adaptive-cache.redis.resilience.retry.wait-duration", "214s"),
            Map.entry("adaptive-cache.redis.ssl.bundle", "v115"),
            Map.entry("adaptive-cache.redis.ssl.enabled", "true"),
            Map.entry("adaptive-cache.redis.strategy.multi.connections", "147"),
            Map.entry("adaptive-cache.redis.strategy.multi.selector", "least-in-flight"),
            Map.entry("adaptive-cache.redis.strategy.pool.max-idle", "149"),
            Map.entry("adaptive-cache.redis.strategy.pool.max-total", "150"),
            Map.entry("adaptive-cache.redis.strategy.pool.max-wait", "221s"),
            Map.entry("adaptive-cache.redis.strategy.pool.min-idle", "152"),
            Map.entry("adaptive-cache.redis.strategy.type", "pooled"),
            Map.entry("adaptive-cache.redis.timeout", "224s"),
            Map.entry("adaptive-cache.redis.transport", "nio"),
            Map.entry("adaptive-cache.redis.url", "v126"),
            Map.entry("adaptive-cache.redis.username", "v127"),
            Map.entry("management.endpoint.adaptivecache.access", "unrestricted"),
            Map.entry("management.endpoint.adaptivecache.cache.time-to-live", "229s")
    );

    /** The properties class of each section, by its prefix. */
    static final Map<String, Class<?>> SECTIONS = Map.of("adaptive-cache.redis", AdaptiveCacheRedisProperties.class,
            "adaptive-cache.memcached", AdaptiveCacheMemcachedProperties.class, "adaptive-cache.cache",
            AdaptiveCacheSpringCacheProperties.class, "adaptive-cache.observations", AdaptiveCacheObservationProperties.class,
            AdaptiveCacheSpringDataRedisProperties.PREFIX, AdaptiveCacheSpringDataRedisProperties.class);

    /** Properties bound by Spring Boot's Actuator to its own endpoint settings, not to a properties class of this starter. */
    private static final String ACTUATOR = "management.endpoint.adaptivecache.";

    @Test
    void everyPropertyInTheMetadataShouldHaveAValueInTheTable() throws Exception {
        List<String> missing = new ArrayList<>();
        for (Map<String, Object> property : ConfigurationMetadata.properties()) {
            String name = (String) property.get("name");
            if (!VALUES.containsKey(name) && VALUES.keySet().stream().noneMatch(key -> key.startsWith(name + "."))) {
                missing.add(name + " (" + property.get("type") + ")");
            }
        }
        assertThat(missing).as("properties in the metadata without a row in AdaptiveCachePropertiesBindingTests.VALUES;"
                + " add one per property, with a value that is not its default").isEmpty();
    }

    @Test
    void everyRowOfTheTableShouldBeAPropertyInTheMetadata() throws Exception {
        TreeSet<String> names = new TreeSet<>();
        ConfigurationMetadata.properties().forEach(property -> names.add((String) property.get("name")));
        assertThat(VALUES.keySet()).as("rows for properties the metadata does not have (renamed or removed?)")
                .allMatch(key -> names.contains(key) || names.stream().anyMatch(name -> key.startsWith(name + ".")));
    }

    @Test
    void everyPropertyShouldBindToItsNonDefaultValue() throws Exception {
        Binder binder = new Binder(new MapConfigurationPropertySource(VALUES));
        Map<String, BeanWrapper> boundSections = new java.util.HashMap<>();
        Map<String, BeanWrapper> defaultSections = new java.util.HashMap<>();
        for (Map.Entry<String, Class<?>> section : SECTIONS.entrySet()) {
            Object bound = binder.bind(section.getKey(), Bindable.of(section.getValue()))
                    .orElseThrow(() -> new AssertionError("nothing bound under " + section.getKey()));
            boundSections.put(section.getKey(), PropertyAccessorFactory.forBeanPropertyAccess(bound));
            defaultSections.put(section.getKey(),
                    PropertyAccessorFactory.forBeanPropertyAccess(PropertyDefaults.of(section.getValue())));
        }
        List<String> wrong = new ArrayList<>();
        for (Map<String, Object> property : ConfigurationMetadata.properties()) {
            String name = (String) property.get("name");
            if (name.startsWith(ACTUATOR)) {
                Class<?> type = Class.forName((String) property.get("type"));
                Object value = binder.bind(name, Bindable.of(type)).orElse(null);
                Object expected = ApplicationConversionService.getSharedInstance().convert(VALUES.get(name), type);
                if (!Objects.equals(value, expected)) {
                    wrong.add(name + ": bound " + value + ", expected " + expected);
                }
                continue;
            }
            String key = VALUES.containsKey(name) ? name
                    : VALUES.keySet().stream().filter(k -> k.startsWith(name + ".")).findFirst().orElseThrow();
            // The longest prefix: adaptive-cache.redis.spring-data has a class of its own inside adaptive-cache.redis.
            String section = SECTIONS.keySet().stream().filter(prefix -> name.startsWith(prefix + "."))
                    .max(java.util.Comparator.comparingInt(String::length)).orElse(null);
            if (section == null) {
                wrong.add(name + ": no properties class in SECTIONS has its prefix");
                continue;
            }
            BeanWrapper boundValues = boundSections.get(section);
            BeanWrapper defaults = defaultSections.get(section);
            String path = beanPath(section, name, key);
            TypeDescriptor type = boundValues.getPropertyTypeDescriptor(path);
            Object expected = ApplicationConversionService.getSharedInstance().convert(VALUES.get(key), TypeDescriptor.valueOf(String.class),
                    type);
            Object value = boundValues.getPropertyValue(path);
            if (!Objects.equals(value, expected)) {
                wrong.add(name + ": bound " + value + ", expected " + expected);
            }
            Object defaultValue;
            try {
                defaultValue = defaults.getPropertyValue(path);
            }
            catch (org.springframework.beans.NullValueInNestedPathException ex) {
                // An entry of a map of objects, which has no entries by default.
                defaultValue = null;
            }
            if (Objects.equals(defaultValue, expected)) {
                wrong.add(name + ": the table's value " + expected + " is its default, so binding it proves nothing");
            }
        }
        assertThat(wrong).as("properties that did not reach their properties class").isEmpty();
    }

    /**
     * {@code adaptive-cache.redis.adaptive.blocking-pool.max-wait} in section {@code adaptive-cache.redis} as
     * {@code adaptive.blockingPool.maxWait}; a map's key in brackets.
     */
    private static String beanPath(String section, String name, String key) {
        String[] segments = name.substring(section.length() + 1).split("\\.");
        StringBuilder path = new StringBuilder();
        for (String segment : segments) {
            if (!path.isEmpty()) {
                path.append('.');
            }
            String[] words = segment.split("-");
            path.append(words[0]);
            for (int i = 1; i < words.length; i++) {
                path.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
            }
        }
        if (!key.equals(name)) {
            // A map's entry: its key, then, for a map of objects (near.caches.products.time-to-live), the object's property.
            String entry = key.substring(name.length() + 1);
            int dot = entry.indexOf('.');
            path.append('[').append(dot < 0 ? entry : entry.substring(0, dot)).append(']');
            if (dot >= 0) {
                String[] words = entry.substring(dot + 1).split("-");
                path.append('.').append(words[0]);
                for (int i = 1; i < words.length; i++) {
                    path.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
                }
            }
        }
        return path.toString();
    }

}
