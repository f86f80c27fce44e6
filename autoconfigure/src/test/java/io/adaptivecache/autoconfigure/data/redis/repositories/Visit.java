package io.adaptivecache.autoconfigure.data.redis.repositories;

import org.jspecify.annotations.Nullable;
import org.springframework.data.annotation.Id;
import org.springframework.data.redis.core.RedisHash;
import org.springframework.data.redis.core.TimeToLive;
import org.springframework.data.redis.core.index.Indexed;

/**
 * A Spring Data Redis entity for the repository tests: a hash under {@code adaptive-visits:<id>},
 * indexed by owner (the set {@code adaptive-visits:owner:<owner>}), expiring after five minutes
 * unless {@link #ttl} says otherwise. A record: Spring Data creates it through its canonical
 * constructor.
 * @param id its id
 * @param owner who made it, indexed
 * @param page what was visited
 * @param ttl seconds to live; null for the keyspace's five minutes
 */
@RedisHash(value = Visit.KEYSPACE, timeToLive = 300)
public record Visit(@Id String id, @Indexed String owner, String page, @TimeToLive @Nullable Long ttl) {

    /** The keyspace: the prefix of the hash keys, and the set of all ids. */
    public static final String KEYSPACE = "adaptive-visits";

    /**
     * A visit that lives as long as the keyspace says.
     * @param id its id
     * @param owner who made it, indexed
     * @param page what was visited
     */
    public Visit(String id, String owner, String page) {
        this(id, owner, page, null);
    }

    /**
     * This visit with its own time to live.
     * @param ttl seconds, or null for the keyspace's
     * @return the visit
     */
    public Visit withTtl(@Nullable Long ttl) {
        return new Visit(this.id, this.owner, this.page, ttl);
    }
}
