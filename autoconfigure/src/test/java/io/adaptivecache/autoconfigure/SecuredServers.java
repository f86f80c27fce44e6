package io.adaptivecache.autoconfigure;

import java.util.UUID;

import io.adaptivecache.devservers.MemcachedServer;
import io.adaptivecache.devservers.RedisServer;
import io.adaptivecache.devservers.TlsMaterial;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The servers that need credentials or TLS, started for one test class and stopped after it: a
 * Redis with an ACL user {@code alice}, a memcached with a SASL user {@code bob}, and a Redis
 * serving TLS with a self-signed certificate. The passwords are new on every run so that a test
 * that looks for them in logs or messages cannot find them by accident.
 */
final class SecuredServers implements BeforeAllCallback, AfterAllCallback {

    /** The password of Redis user {@code alice} on {@link #aclRedis}. */
    final String redisPassword;

    /** The password of memcached user {@code bob} on {@link #saslMemcached}. */
    final String memcachedPassword;

    /** A Redis that admits only user {@code alice}. */
    final RedisServer aclRedis;

    /** A memcached that admits only SASL user {@code bob}. */
    final MemcachedServer saslMemcached;

    /** The certificate {@link #tlsRedis} serves, for a client's trust store. */
    final TlsMaterial tls = TlsMaterial.selfSigned();

    /** A Redis serving TLS on its {@code tlsPort()}. */
    final RedisServer tlsRedis = RedisServer.withTls(this.tls);

    /**
     * @param secretPrefix what each password starts with, to tell one test class's secrets apart
     */
    SecuredServers(String secretPrefix) {
        this.redisPassword = secretPrefix + UUID.randomUUID();
        this.memcachedPassword = secretPrefix + UUID.randomUUID();
        this.aclRedis = RedisServer.withArguments("--user", "alice", "on", ">" + this.redisPassword, "~*", "&*", "+@all");
        this.saslMemcached = MemcachedServer.withSasl("bob", this.memcachedPassword);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        this.aclRedis.start();
        this.saslMemcached.start();
        this.tlsRedis.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        this.tlsRedis.stop();
        this.saslMemcached.stop();
        this.aclRedis.stop();
    }
}
