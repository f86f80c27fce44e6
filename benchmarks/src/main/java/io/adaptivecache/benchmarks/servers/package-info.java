/**
 * The servers a run talks to, and the delaying proxy in front of them, each its own process; and
 * the child JVMs the harnesses start.
 */
package io.adaptivecache.benchmarks.servers;
