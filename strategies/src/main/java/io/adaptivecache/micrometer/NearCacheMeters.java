package io.adaptivecache.micrometer;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import io.adaptivecache.near.NearCacheStats;
import io.adaptivecache.near.NearCacheTemplate;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.cache.CacheMeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * A near cache's meters, by Micrometer's cache conventions ({@link CacheMeterBinder}), once per
 * tier: tagged {@code cache} (the near cache's name) and {@code tier} ({@code local} or
 * {@code remote}).
 * <ul>
 * <li>{@code cache.gets} ({@code result} {@code hit} or {@code miss}): local, reads the local tier
 * answered or not (a read it did not try while not serving is a miss); remote, reads sent to the
 * server that found the key or not,</li>
 * <li>{@code cache.puts}: local, values kept; remote, writes sent through the near cache,</li>
 * <li>{@code cache.evictions}, {@code cache.size}: the local tier's (the server's are its own),</li>
 * <li>{@code cache.invalidations} ({@code source} {@code server} or {@code write}): local copies
 * dropped because the server said a key changed, or a write went through this near cache,</li>
 * <li>{@code cache.near.flushes}: the whole local tier dropped (invalidations possibly lost, or the
 * server flushed); {@code cache.near.bypassed}: reads sent to the server because the local tier
 * was not serving; {@code cache.near.discarded}: replies not kept because an invalidation or a
 * flush overtook them,</li>
 * <li>{@code cache.near.invalidation.lag} (function timer, and {@code .max}): from sending a write
 * through this near cache to receiving the server's invalidation of it, sampled (one write at a
 * time): an upper bound of how late other instances learn of a write,</li>
 * <li>{@code cache.near.serving} (1 or 0) and {@code cache.near.staleness.bound}.</li>
 * </ul>
 * The local tier's meters are {@code tier=local}; all of them read {@link NearCacheTemplate#stats()}
 * when scraped, so the near cache records nothing for Micrometer on its path.
 */
public final class NearCacheMeters implements MeterBinder {

    private final NearCacheTemplate near;
    private final Iterable<Tag> tags;

    /**
     * Meters for a near cache.
     * @param near the near cache
     * @param tags further tags
     */
    public NearCacheMeters(NearCacheTemplate near, Iterable<Tag> tags) {
        this.near = Objects.requireNonNull(near, "near");
        this.tags = Tags.of(tags);
    }

    /**
     * Registers the meters of a near cache.
     * @param near the near cache
     * @param registry the registry
     * @param tags further tags
     */
    public static void bind(NearCacheTemplate near, MeterRegistry registry, Iterable<Tag> tags) {
        new NearCacheMeters(near, tags).bindTo(registry);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        new LocalTier(near, Tags.of(tags).and("tier", "local")).bindTo(registry);
        remoteTier(near, Tags.of(tags).and("tier", "remote")).bindTo(registry);
    }

    /** The local tier, by the conventions, and what only it has. */
    private static final class LocalTier extends TierBinder {

        LocalTier(NearCacheTemplate near, Iterable<Tag> tags) {
            super(near, tags, new Figures(NearCacheStats::size, NearCacheStats::localHits,
                    stats -> stats.localMisses() + stats.bypassedReads(), NearCacheStats::evictions, NearCacheStats::localPuts));
        }

        @Override
        protected void bindImplementationSpecificMetrics(MeterRegistry registry) {
            NearCacheTemplate near = getCache();
            if (near == null) {
                return;
            }
            Iterable<Tag> tags = getTagsWithCacheName();
            counter(registry, near, "cache.invalidations", Tags.of(tags).and("source", "server"), NearCacheStats::serverInvalidations,
                    "Local copies dropped because the server said their key changed");
            counter(registry, near, "cache.invalidations", Tags.of(tags).and("source", "write"), NearCacheStats::writeInvalidations,
                    "Local copies dropped because a write went through this near cache");
            counter(registry, near, "cache.near.flushes", tags, NearCacheStats::flushes,
                    "Times the whole local tier was dropped: invalidations possibly lost, or the server flushed");
            counter(registry, near, "cache.near.bypassed", tags, NearCacheStats::bypassedReads,
                    "Reads sent to the server because the local tier was not serving");
            counter(registry, near, "cache.near.discarded", tags, NearCacheStats::discardedLoads,
                    "Replies not kept because an invalidation or a flush overtook them");
            FunctionTimer.builder("cache.near.invalidation.lag", near, n -> n.stats().invalidationLagCount(),
                    n -> n.stats().invalidationLagTotalNanos(), TimeUnit.NANOSECONDS).tags(tags)
                    .description("From sending a write through this near cache to receiving its invalidation (sampled)")
                    .register(registry);
            TimeGauge.builder("cache.near.invalidation.lag.max", near, TimeUnit.NANOSECONDS,
                    n -> n.stats().invalidationLagMaxNanos()).tags(tags)
                    .description("The longest invalidation lag measured").register(registry);
            Gauge.builder("cache.near.serving", near, n -> n.isServingLocally() ? 1 : 0).tags(tags)
                    .description("1 while the local tier answers reads, 0 while reads go to the server").register(registry);
            TimeGauge.builder("cache.near.staleness.bound", near, TimeUnit.NANOSECONDS, n -> n.stalenessBound().toNanos())
                    .tags(tags).description("The longest a read can lag behind a write that completed before it began")
                    .register(registry);
        }

        private static void counter(MeterRegistry registry, NearCacheTemplate near, String name, Iterable<Tag> tags,
                ToLongFunction<NearCacheStats> count, String description) {
            ToDoubleFunction<NearCacheTemplate> read = n -> count.applyAsLong(n.stats());
            FunctionCounter.builder(name, near, read).tags(tags).description(description).register(registry);
        }
    }

    /** The server behind the local tier, as this near cache sees it: no size and no evictions of its own. */
    private static TierBinder remoteTier(NearCacheTemplate near, Iterable<Tag> tags) {
        return new TierBinder(near, tags,
                new Figures(null, NearCacheStats::remoteHits, NearCacheStats::remoteMisses, null, NearCacheStats::remoteWrites));
    }

    /** Which of the near cache's stats a tier's conventional meters read; {@code null} where the tier has no such figure. */
    private record Figures(@Nullable ToLongFunction<NearCacheStats> size, ToLongFunction<NearCacheStats> hits,
            ToLongFunction<NearCacheStats> misses, @Nullable ToLongFunction<NearCacheStats> evictions,
            ToLongFunction<NearCacheStats> puts) {
    }

    /** Micrometer's cache binder over one tier's figures of the near cache's stats, read when scraped. */
    private static class TierBinder extends CacheMeterBinder<NearCacheTemplate> {

        private final Figures figures;

        TierBinder(NearCacheTemplate near, Iterable<Tag> tags, Figures figures) {
            super(near, near.name(), tags);
            this.figures = figures;
        }

        @Override
        protected Long size() {
            return figure(this.figures.size());
        }

        @Override
        protected long hitCount() {
            return count(this.figures.hits());
        }

        @Override
        protected Long missCount() {
            return figure(this.figures.misses());
        }

        @Override
        protected Long evictionCount() {
            return figure(this.figures.evictions());
        }

        @Override
        protected long putCount() {
            return count(this.figures.puts());
        }

        @Override
        protected void bindImplementationSpecificMetrics(MeterRegistry registry) {
            // Only the local tier has more.
        }

        /** {@code null} where the tier has no such figure, or once the cache is gone (the binder holds it weakly). */
        private @Nullable Long figure(@Nullable ToLongFunction<NearCacheStats> figure) {
            NearCacheTemplate near = getCache();
            return near == null || figure == null ? null : figure.applyAsLong(near.stats());
        }

        /** 0 once the cache is gone. */
        private long count(ToLongFunction<NearCacheStats> count) {
            NearCacheTemplate near = getCache();
            return near == null ? 0 : count.applyAsLong(near.stats());
        }
    }
}
