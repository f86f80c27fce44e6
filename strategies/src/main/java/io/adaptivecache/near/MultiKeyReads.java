package io.adaptivecache.near;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.adaptivecache.CacheTemplate;

/**
 * The getAll path of a {@link NearCachingTemplate}: the local tier answers the keys it can, and one
 * call to the server fetches the rest, each kept ({@link ReadKeeping}) under the version it had
 * when the call was sent. A class of its own because a {@link Lookup} is the only state it needs,
 * and that lives for one call: it joins no read on its way (single flight is per key, in
 * {@link SingleFlightReads}).
 */
final class MultiKeyReads {

    private final CacheTemplate remote;
    private final LocalTier tier;
    private final InvalidationSubscription subscription;
    private final ReadKeeping keeping;

    /**
     * The getAll path of one near cache.
     * @param remote the template behind it
     * @param tier its local tier
     * @param subscription says when the tier may serve
     * @param keeping what a read may leave in the tier
     */
    MultiKeyReads(CacheTemplate remote, LocalTier tier, InvalidationSubscription subscription, ReadKeeping keeping) {
        this.remote = remote;
        this.tier = tier;
        this.subscription = subscription;
        this.keeping = keeping;
    }

    Map<String, byte[]> getAll(Collection<String> keys) {
        Lookup lookup = lookUp(keys);
        if (lookup == null) {
            return keeping.countRemote(keys, remote.getAll(keys));
        }
        if (lookup.missing.isEmpty()) {
            return lookup.answer(keys, Map.of());
        }
        Map<String, byte[]> fetched = keeping.countRemote(lookup.missing.keySet(), remote.getAll(lookup.missing.keySet()));
        lookup.keep(fetched);
        return lookup.answer(keys, fetched);
    }

    CompletableFuture<Map<String, byte[]>> getAllAsync(Collection<String> keys) {
        Lookup lookup = lookUp(keys);
        if (lookup == null) {
            return remote.getAllAsync(keys).thenApply(fetched -> keeping.countRemote(keys, fetched));
        }
        if (lookup.missing.isEmpty()) {
            return CompletableFuture.completedFuture(lookup.answer(keys, Map.of()));
        }
        return remote.getAllAsync(lookup.missing.keySet()).thenApply(fetched -> {
            keeping.countRemote(lookup.missing.keySet(), fetched);
            lookup.keep(fetched);
            return lookup.answer(keys, fetched);
        });
    }

    /**
     * Answers what the local tier can of a getAll and takes the versions of the rest.
     * @return the lookup, or {@code null} when the whole call must go to the server as it is:
     *     the local tier is not serving, or the keys are for the remote template to refuse
     */
    private Lookup lookUp(Collection<String> keys) {
        if (keys == null || keys.isEmpty()) {
            return null;
        }
        if (!subscription.isServing()) {
            for (String key : keys) {
                if (tier.covers(key)) {
                    tier.bypassedReads.increment();
                }
            }
            return null;
        }
        // A null or repeated key: the remote template refuses the call, with its own message.
        HashSet<String> distinct = new HashSet<>(keys.size() * 2);
        for (String key : keys) {
            if (key == null || !distinct.add(key)) {
                return null;
            }
        }
        Lookup lookup = new Lookup(tier.epoch());
        lookup.sentAt = System.nanoTime();
        for (String key : keys) {
            if (!tier.covers(key)) {
                lookup.missing.put(key, Lookup.NOT_KEPT);
                continue;
            }
            LocalTier.Entry entry = tier.lookup(key);
            if (entry != null) {
                tier.localHits.increment();
                lookup.hits.put(key, entry.value().clone());
            }
            else {
                tier.localMisses.increment();
                lookup.missing.put(key, tier.version(key));
                CompletableFuture<Long> ttl = keeping.askTimeToLive(key);
                if (ttl != null) {
                    lookup.ttls.put(key, ttl);
                }
            }
        }
        return lookup;
    }

    /** One getAll: the local hits, and the keys to fetch with the version each was sent under. */
    private final class Lookup {

        /** Marks a key outside the tier's prefixes: fetched, never kept. */
        static final Long NOT_KEPT = Long.MIN_VALUE;

        final long epoch;
        final Map<String, byte[]> hits = new LinkedHashMap<>();
        final Map<String, Long> missing = new LinkedHashMap<>();
        /** The remaining times to live asked with the read, by key, when the source can tell. */
        final Map<String, CompletableFuture<Long>> ttls = new HashMap<>();
        long sentAt;

        Lookup(long epoch) {
            this.epoch = epoch;
        }

        void keep(Map<String, byte[]> fetched) {
            missing.forEach((key, version) -> {
                if (version != NOT_KEPT) {
                    keeping.keep(key, fetched.get(key), version, epoch, sentAt, ttls.get(key));
                }
            });
        }

        /** The answer in the order of {@code keys}, absent keys left out, as the remote template answers. */
        Map<String, byte[]> answer(Collection<String> keys, Map<String, byte[]> fetched) {
            Map<String, byte[]> answer = new LinkedHashMap<>(keys.size() * 2);
            for (String key : keys) {
                byte[] value = hits.get(key);
                if (value == null) {
                    value = fetched.get(key);
                }
                if (value != null) {
                    answer.put(key, value);
                }
            }
            return answer;
        }
    }
}
