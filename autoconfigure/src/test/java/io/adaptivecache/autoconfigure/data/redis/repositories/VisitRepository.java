package io.adaptivecache.autoconfigure.data.redis.repositories;

import java.util.List;

import org.springframework.data.repository.CrudRepository;

/** The repository of {@link Visit}s, with a query on the indexed owner. */
public interface VisitRepository extends CrudRepository<Visit, String> {

    /**
     * The visits of one owner, found through the owner's index set.
     * @param owner the owner
     * @return the owner's visits
     */
    List<Visit> findByOwner(String owner);
}
