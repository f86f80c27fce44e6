package io.adaptivecache.integration;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.springframework.core.env.Environment;

/** Requests to the sample app running on its random local port, JSON in and out. */
final class SampleHttp {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Environment environment;

    SampleHttp(Environment environment) {
        this.environment = environment;
    }

    HttpResponse<String> send(String method, String path, String json) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + this.environment.getProperty("local.server.port") + path);
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json)).build();
        return this.http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
