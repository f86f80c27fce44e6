/**
 * The call vocabulary every layer shares: which command a call was
 * ({@link io.adaptivecache.call.CacheCommand}), how it ended ({@link io.adaptivecache.call.CallOutcome})
 * and who is told ({@link io.adaptivecache.call.CallObserver}). It sits at the bottom of the core and
 * depends on nothing but the root package's exceptions.
 */
@NullMarked
package io.adaptivecache.call;

import org.jspecify.annotations.NullMarked;
