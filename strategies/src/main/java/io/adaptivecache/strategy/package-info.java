/**
 * The connection-strategy layer, shared by every backend: how calls are spread over native
 * connections (SHARED(N) with a {@link io.adaptivecache.strategy.ConnectionSelector}, or POOLED
 * over commons-pool2), and {@link io.adaptivecache.strategy.SwappableConnectionStrategy}, which
 * replaces the live strategy at runtime without failing a call.
 *
 * <p>A backend implements {@link io.adaptivecache.strategy.ConnectionFactory} once; every
 * strategy works with it.
 */
@NullMarked
package io.adaptivecache.strategy;

import org.jspecify.annotations.NullMarked;
