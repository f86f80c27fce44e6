/** Auto-configuration of a Micrometer Observation per cache call. */
@NullMarked
package io.adaptivecache.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
