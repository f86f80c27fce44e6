package io.adaptivecache.near;

import java.time.Duration;
import java.util.Objects;

import io.adaptivecache.CacheFailureMode;
import io.adaptivecache.CacheTemplate;
import io.adaptivecache.management.ManagedCacheTemplate;

/**
 * Builds {@link NearCacheTemplate}s: a local tier (Caffeine, which must be on the classpath) in
 * front of a template.
 *
 * <pre>{@code
 * CacheTemplate redis = RedisCacheTemplates.builder().uri("redis://cache:6379").start();
 * InvalidationSource invalidations = RedisInvalidations.builder().uri("redis://cache:6379").start();
 * NearCacheTemplate near = NearCacheTemplates.redis(redis, invalidations,
 *         NearCacheSettings.builder().maximumEntries(50_000).keyPrefixes("users:").build());
 * }</pre>
 *
 * <p>Two kinds, named by what bounds their staleness: {@link #redis} is kept correct by the
 * server's invalidations; {@link #stalenessBounded} (memcached, which has no invalidations) by a
 * short time to live only.
 */
public final class NearCacheTemplates {

    private NearCacheTemplates() {
    }

    /**
     * A near cache kept correct by Redis invalidations: a write by anyone to a cached key drops
     * the local copies of every instance as soon as the server's message arrives, and the local
     * tier stops serving whenever the messages may have been lost.
     * @param template the Redis template behind the local tier (any strategy or driver); not a cluster template
     * @param invalidations where invalidations come from: a source on the same Redis server and
     *        database; the local tier serves only while the template is proven to read the keyspace
     *        the source tracks ({@link InvalidationSource#subscribe(java.util.Collection, InvalidationListener, CacheTemplate)})
     * @param settings the local tier's bounds and prefixes
     * @return the near cache; its local tier serves once the server tracks its prefixes
     * @throws IllegalArgumentException for a memcached or Redis Cluster template
     */
    public static NearCacheTemplate redis(CacheTemplate template, InvalidationSource invalidations, NearCacheSettings settings) {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(invalidations, "invalidations");
        Objects.requireNonNull(settings, "settings");
        requireCaffeine();
        if (template instanceof ManagedCacheTemplate plain) {
            if (plain.nodes().isPresent()) {
                throw new IllegalArgumentException("The template '" + template.name() + "' spreads keys over a Redis Cluster; a"
                        + " near cache with invalidations would need a tracking connection to every master and a flush on every"
                        + " topology change, which it does not have, so it refuses rather than serve copies no master"
                        + " invalidates. Use NearCacheTemplates.stalenessBounded for a local tier bounded by a time to live.");
            }
            if (!"redis".equals(plain.stats().backendKind())) {
                throw new IllegalArgumentException("The template '" + template.name() + "' is a " + plain.stats().backendKind()
                        + " template, which sends no invalidations; use NearCacheTemplates.stalenessBounded, whose time to"
                        + " live bounds how stale a local copy can be.");
            }
        }
        // An own set may keep its value (until the next report of its key) only where a set that returns was executed: a
        // FAIL_FAST template's (in DEGRADE mode a failed set returns too, skipped), never a template of unknown kind.
        boolean writeThrough = template instanceof ManagedCacheTemplate managed && managed.stats().failureMode() == CacheFailureMode.FAIL_FAST;
        LocalTier tier = new LocalTier(settings, settings.timeToLive().toNanos(), writeThrough);
        // With the template, so that the tier serves only while the template reads the keyspace the source tracks.
        InvalidationSubscription subscription = invalidations.subscribe(tier.prefixes().prefixes(), tier, template);
        return new NearCachingTemplate(name(template, settings), template, tier, subscription, invalidations.stalenessBound(),
                invalidations, "invalidated by " + invalidations.describe());
    }

    /**
     * A near cache without invalidations, for memcached (which has none) or any server: another
     * instance's write is seen here only when the local copy expires, so {@code maxStaleness}
     * is how stale a read may be and should be short. Writes through this near cache still drop
     * its own copy at once.
     * @param template the template behind the local tier
     * @param maxStaleness the longest a local copy lives, counted from when its read was sent:
     *        the staleness bound (the settings' time to live applies if shorter)
     * @param settings the local tier's bounds and prefixes
     * @return the near cache, serving at once
     */
    public static NearCacheTemplate stalenessBounded(CacheTemplate template, Duration maxStaleness, NearCacheSettings settings) {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(maxStaleness, "maxStaleness");
        Objects.requireNonNull(settings, "settings");
        if (maxStaleness.isNegative() || maxStaleness.isZero()) {
            throw new IllegalArgumentException("The near cache's max staleness must be positive, was " + maxStaleness);
        }
        requireCaffeine();
        Duration bound = maxStaleness.compareTo(settings.timeToLive()) < 0 ? maxStaleness : settings.timeToLive();
        LocalTier tier = new LocalTier(settings, bound.toNanos());
        return new NearCachingTemplate(name(template, settings), template, tier, new UntilClosed(), bound, null,
                "no invalidations, staleness bounded by a time to live of " + bound);
    }

    private static String name(CacheTemplate template, NearCacheSettings settings) {
        return settings.name() != null ? settings.name() : template.name();
    }

    private static void requireCaffeine() {
        try {
            Class.forName("com.github.benmanes.caffeine.cache.Caffeine", false, NearCacheTemplates.class.getClassLoader());
        }
        catch (ClassNotFoundException ex) {
            throw new IllegalStateException("A near cache keeps its local tier in Caffeine, which is not on the classpath: add"
                    + " com.github.ben-manes.caffeine:caffeine (Spring Boot manages its version)", ex);
        }
    }

    /** The subscription of a tier without invalidations: it serves until the near cache closes. */
    private static final class UntilClosed implements InvalidationSubscription {

        private volatile boolean open = true;

        @Override
        public boolean isServing() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }
}
