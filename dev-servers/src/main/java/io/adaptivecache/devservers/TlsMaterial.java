package io.adaptivecache.devservers;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for {@code 127.0.0.1} and {@code localhost} with its private key, as
 * PEM files a TLS server reads, made with the JDK's own {@code keytool} (no OpenSSL needed). The
 * certificate is its own CA: a client trusts {@link #certificate()}.
 */
public final class TlsMaterial {

    private final Path certificate;
    private final Path privateKey;

    private TlsMaterial(Path certificate, Path privateKey) {
        this.certificate = certificate;
        this.privateKey = privateKey;
    }

    /**
     * Makes a fresh key pair and certificate in a temporary folder.
     * @return the files
     */
    public static TlsMaterial selfSigned() {
        try {
            Path directory = Files.createTempDirectory("adaptive-cache-tls-");
            directory.toFile().deleteOnExit();
            Path keyStore = directory.resolve("server.p12");
            char[] password = "changeit".toCharArray();
            String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
            Process process = new ProcessBuilder(List.of(keytool, "-genkeypair", "-alias", "server", "-keyalg", "RSA",
                    "-keysize", "2048", "-validity", "2", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                    "-storetype", "PKCS12", "-keystore", keyStore.toString(), "-storepass", new String(password), "-keypass",
                    new String(password))).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool failed: " + output);
            }
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(keyStore)) {
                store.load(in, password);
            }
            Key key = store.getKey("server", password);
            Certificate cert = store.getCertificate("server");
            Path certificate = directory.resolve("server.crt");
            Path privateKey = directory.resolve("server.key");
            Files.writeString(certificate, pem("CERTIFICATE", cert.getEncoded()));
            Files.writeString(privateKey, pem("PRIVATE KEY", key.getEncoded()));
            for (Path file : List.of(keyStore, certificate, privateKey)) {
                file.toFile().deleteOnExit();
            }
            return new TlsMaterial(certificate, privateKey);
        }
        catch (IOException | java.security.GeneralSecurityException ex) {
            throw new IllegalStateException("Cannot make a test certificate", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while making a test certificate", ex);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    /** The certificate (PEM), also the CA a client must trust. */
    public Path certificate() {
        return certificate;
    }

    /** The private key (PEM, PKCS#8). */
    public Path privateKey() {
        return privateKey;
    }
}
