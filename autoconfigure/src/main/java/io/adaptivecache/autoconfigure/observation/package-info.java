/** Auto-configuration of a Micrometer Observation per cache call. */
package io.adaptivecache.autoconfigure.observation;
