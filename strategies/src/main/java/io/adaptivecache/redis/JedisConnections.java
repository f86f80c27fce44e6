package io.adaptivecache.redis;

import java.time.Duration;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

import io.adaptivecache.strategy.BlockingPoolStrategies;
import io.adaptivecache.strategy.ConnectionFactory;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslVerifyMode;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Opens, checks and closes Jedis connections (Jedis's connection class, not its pool: the
 * POOLED strategy does the borrowing and measures it). The settings come from the same
 * {@link RedisURI} as the template's Lettuce connections: credentials, database, client name,
 * TLS (the JVM's default trust unless a TLS context is given, and the server's name checked
 * against its certificate when the URI asks for full verification, as Lettuce does), and the
 * command timeout as the socket timeout.
 *
 * <p>A Jedis connection serves one caller at a time, so these serve POOLED strategies only
 * (only a POOLED strategy uses them); a Jedis-pooled template's other strategies run on
 * Lettuce ({@link JedisPooledConnections}).
 */
final class JedisConnections implements ConnectionFactory<Jedis> {

    private final HostAndPort address;
    private final JedisClientConfig config;
    private final String description;
    private @Nullable RedisAuthentication authentication;

    JedisConnections(RedisURI uri, Duration connectTimeout, Duration commandTimeout, String description,
            @Nullable SSLContext sslContext) {
        this.address = new HostAndPort(uri.getHost(), uri.getPort());
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis((int) connectTimeout.toMillis()).socketTimeoutMillis((int) commandTimeout.toMillis())
                .database(uri.getDatabase()).ssl(uri.isSsl());
        if (uri.isSsl()) {
            if (sslContext != null) {
                config.sslSocketFactory(sslContext.getSocketFactory());
            }
            if (uri.getVerifyMode() == SslVerifyMode.FULL) {
                // Jedis checks no host name by itself; the JDK does, given the endpoint identification algorithm.
                SSLParameters parameters = new SSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                config.sslParameters(parameters);
            }
        }
        // Static credentials, as a URI or the builder gives them, resolve at once.
        RedisCredentials credentials = uri.getCredentialsProvider() == null ? null
                : uri.getCredentialsProvider().resolveCredentials().block(connectTimeout);
        if (credentials != null && credentials.hasUsername()) {
            config.user(credentials.getUsername());
        }
        if (credentials != null && credentials.hasPassword()) {
            config.password(new String(credentials.getPassword()));
        }
        if (uri.getClientName() != null) {
            config.clientName(uri.getClientName());
        }
        this.config = config.build();
        this.description = description;
    }

    /** A blocking connection, for one caller at a time: only a POOLED strategy lends these ({@link BlockingPoolStrategies}). */
    @Override
    public Jedis open() {
        Jedis jedis = null;
        try {
            // Inside the try: Jedis may connect (AUTH, SELECT and all) in its constructor already, so a server that cannot be
            // reached or refuses the credentials fails here, and must fail as a CacheConnectionException like Lettuce's.
            jedis = new Jedis(this.address, this.config);
            jedis.connect();
            // AUTH, SELECT and CLIENT SETNAME run on connect; a PING proves the connection usable now.
            jedis.ping();
            return jedis;
        }
        catch (JedisException ex) {
            if (jedis != null) {
                jedis.close();
            }
            throw RedisConnections.connectFailure(this.authentication, "Cannot connect to Redis at " + this.description + " (Jedis)",
                    ex);
        }
    }

    void authentication(RedisAuthentication authentication) {
        this.authentication = authentication;
    }

    @Override
    public boolean isUsable(Jedis jedis) {
        return jedis.isConnected() && !jedis.isBroken();
    }

    @Override
    public void close(Jedis jedis) {
        try {
            jedis.close();
        }
        catch (RuntimeException ex) {
            // already broken: nothing left to release
        }
    }

    @Override
    public String describe() {
        return this.description + " (Jedis)";
    }
}
