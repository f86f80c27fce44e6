package io.adaptivecache.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;

/**
 * A Lua script run by its SHA-1 ({@code EVALSHA}), falling back to {@code EVAL} (which also
 * caches it on the server) when the server answers NOSCRIPT, as it does after a restart.
 */
final class RedisScript {

    private final String body;
    private final String sha;

    RedisScript(String body) {
        this.body = body;
        this.sha = sha1Hex(body.getBytes(StandardCharsets.UTF_8));
    }

    CompletableFuture<Long> run(RedisScriptingAsyncCommands<String, byte[]> commands, String key, byte[]... arguments) {
        String[] keys = {key};
        return commands.<Long>evalsha(sha, ScriptOutputType.INTEGER, keys, arguments).toCompletableFuture()
                .exceptionallyCompose(failure -> isNoScript(failure)
                        ? commands.<Long>eval(body, ScriptOutputType.INTEGER, keys, arguments).toCompletableFuture()
                        : CompletableFuture.failedFuture(failure));
    }

    private static boolean isNoScript(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause instanceof RedisCommandExecutionException && cause.getMessage() != null
                && cause.getMessage().startsWith("NOSCRIPT");
    }

    /** The script's text, for EVAL. */
    String body() {
        return body;
    }

    /** The script's SHA-1, for EVALSHA. */
    String sha() {
        return sha;
    }

    static String sha1Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("Every Java runtime has SHA-1", ex);
        }
    }
}
