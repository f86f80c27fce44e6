/**
 * Helpers the core's packages share and applications do not use: no compatibility is promised
 * for anything here.
 */
@NullMarked
package io.adaptivecache.internal;

import org.jspecify.annotations.NullMarked;
