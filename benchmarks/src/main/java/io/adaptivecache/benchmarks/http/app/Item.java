package io.adaptivecache.benchmarks.http.app;

import java.io.Serializable;
import java.util.List;
import java.util.Locale;

/**
 * What {@code GET /items/{id}} answers: a catalog item of about 1 KB as JSON, made from its id
 * alone, so that every variant caches and serves the same bytes. Serializable because Boot's
 * {@code RedisCacheManager} stores values with JDK serialization by default (adaptive-cache's
 * Spring cache stores JSON).
 *
 * @param id the id, from 0 to {@link #KEYS} - 1
 * @param sku the stock-keeping unit
 * @param name a short name
 * @param description a paragraph, most of the item's size
 * @param priceCents the price in cents
 * @param currency the price's currency
 * @param stock units in stock
 * @param tags a few labels
 */
public record Item(long id, String sku, String name, String description, long priceCents, String currency, int stock,
        List<String> tags) implements Serializable {

    /** How many items exist: the fixed key space every load asks from. */
    public static final int KEYS = 10_000;

    private static final long serialVersionUID = 1L;

    private static final String PARAGRAPH = "A sturdy, general-purpose item kept in the catalog of this benchmark. It is"
            + " described at some length so that the answer weighs about a kilobyte, as a product page's data often does:"
            + " a name, a price, stock, a few tags and a paragraph of text that nobody reads but every cache has to carry."
            + " The words do not matter; their number does. Each item differs from the next by its id, its name, its price"
            + " and its stock, so a cache that mixed two of them up would serve a different answer. Measured end to end,"
            + " the bytes travel from Redis to the application, are read back into this record, and are written out again"
            + " as JSON by the web layer, which is the work every request of the benchmark does once its item is cached."
            + " The benchmark asks for ids picked at random from a fixed key space.";

    private static final List<String> TAGS = List.of("catalog", "benchmark", "cached", "redis", "spring", "json", "http",
            "item");

    /**
     * The item of an id.
     * @param id the id
     * @return the item, the same for the same id
     */
    public static Item of(long id) {
        return new Item(id, String.format(Locale.ROOT, "SKU-%08d", id), "Item number " + id, PARAGRAPH + " Item " + id + ".",
                999 + (id * 37) % 100_000, "EUR", (int) ((id * 7919) % 500), TAGS);
    }
}
