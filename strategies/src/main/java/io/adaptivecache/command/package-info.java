/**
 * What every backend shares above the connection: {@link io.adaptivecache.command.CacheBackend}
 * (the SPI a backend implements), {@link io.adaptivecache.command.CacheInputRules} (validation
 * before any I/O) and {@link io.adaptivecache.command.DefaultCacheTemplate}, the one
 * {@link io.adaptivecache.CacheTemplate} implementation for all backends.
 */
package io.adaptivecache.command;
