package io.adaptivecache;

import java.util.Objects;

/**
 * An opaque token that identifies the version of a value read by {@code gets}; pass it back
 * to {@code cas} unchanged. Callers need not look inside: the backend decides what it holds
 * (memcached's 64-bit CAS unique, or a digest of the value for Redis).
 */
public final class CasToken {

    private final long version;
    private final String digest;

    private CasToken(long version, String digest) {
        this.version = version;
        this.digest = digest;
    }

    /**
     * A token holding a server-issued version number (memcached's CAS unique).
     * @param version the version
     * @return the token
     */
    public static CasToken ofVersion(long version) {
        return new CasToken(version, null);
    }

    /**
     * A token holding a digest of the value that was read.
     * @param digest the digest, as text
     * @return the token
     */
    public static CasToken ofDigest(String digest) {
        return new CasToken(0, Objects.requireNonNull(digest, "digest"));
    }

    /**
     * The version number, for backends that issue one.
     * @return the version
     * @throws IllegalStateException if this token holds a digest
     */
    public long version() {
        if (digest != null) {
            throw new IllegalStateException("This CAS token holds a digest, not a version: was it read from another backend?");
        }
        return version;
    }

    /**
     * The digest, for backends that compare values.
     * @return the digest
     * @throws IllegalStateException if this token holds a version
     */
    public String digest() {
        if (digest == null) {
            throw new IllegalStateException("This CAS token holds a version, not a digest: was it read from another backend?");
        }
        return digest;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CasToken token && token.version == version && Objects.equals(token.digest, digest);
    }

    @Override
    public int hashCode() {
        return digest != null ? digest.hashCode() : Long.hashCode(version);
    }

    @Override
    public String toString() {
        return digest != null ? "CasToken[digest=" + digest + "]" : "CasToken[version=" + version + "]";
    }
}
