package io.adaptivecache.near;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A set of key prefixes reduced to the fewest that cover the same keys: a prefix that another
 * one starts already is dropped ({@code users:} covers {@code users:vip:}), and no prefixes at
 * all means every key. Redis refuses overlapping prefixes in one {@code CLIENT TRACKING} call, so
 * the reduced form is also what a tracking connection registers.
 */
public final class KeyPrefixes {

    /** Every key. */
    public static final KeyPrefixes EVERY_KEY = new KeyPrefixes(List.of());

    private final List<String> prefixes;

    private KeyPrefixes(List<String> prefixes) {
        this.prefixes = prefixes;
    }

    /**
     * Reduces prefixes.
     * @param prefixes the prefixes; empty, or any of them empty, for every key
     * @return the reduced set
     */
    public static KeyPrefixes of(Collection<String> prefixes) {
        List<String> reduced = new ArrayList<>();
        for (String prefix : prefixes) {
            if (prefix == null || prefix.isEmpty()) {
                return EVERY_KEY;
            }
            add(reduced, prefix);
        }
        // Sorted, so that equal sets are equal lists.
        reduced.sort(null);
        return reduced.isEmpty() ? EVERY_KEY : new KeyPrefixes(List.copyOf(reduced));
    }

    private static void add(List<String> reduced, String prefix) {
        for (String kept : reduced) {
            if (prefix.startsWith(kept)) {
                return;
            }
        }
        reduced.removeIf(kept -> kept.startsWith(prefix));
        reduced.add(prefix);
    }

    /**
     * The union of this set and another, reduced.
     * @param other the other set
     * @return the union
     */
    public KeyPrefixes union(KeyPrefixes other) {
        if (isEveryKey() || other.isEveryKey()) {
            return EVERY_KEY;
        }
        List<String> all = new ArrayList<>(prefixes);
        all.addAll(other.prefixes);
        return of(all);
    }

    /**
     * Whether every key is covered.
     * @return {@code true} for no prefixes
     */
    public boolean isEveryKey() {
        return prefixes.isEmpty();
    }

    /**
     * The reduced prefixes.
     * @return the prefixes, empty for every key
     */
    public List<String> prefixes() {
        return prefixes;
    }

    /**
     * Whether a key falls under one of the prefixes.
     * @param key the key
     * @return {@code true} if it does (always, for every key)
     */
    public boolean covers(String key) {
        List<String> list = prefixes;
        for (int i = 0, n = list.size(); i < n; i++) {
            if (key.startsWith(list.get(i))) {
                return true;
            }
        }
        return list.isEmpty();
    }

    /**
     * Whether every key under the other set falls under this one.
     * @param other the other set
     * @return {@code true} if this set covers it
     */
    public boolean covers(KeyPrefixes other) {
        if (isEveryKey()) {
            return true;
        }
        if (other.isEveryKey()) {
            return false;
        }
        for (String prefix : other.prefixes) {
            if (!covers(prefix)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof KeyPrefixes that && that.prefixes.equals(this.prefixes);
    }

    @Override
    public int hashCode() {
        return prefixes.hashCode();
    }

    @Override
    public String toString() {
        return isEveryKey() ? "(every key)" : prefixes.toString();
    }
}
