package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.Test;

public class SettingsHiddenTest {
    private static final String TEXT = "# server\nport = 9000\nworkers=4\nname = shop\n\nretries = lots\n";

    @Test
    public void severalSettings() {
        Settings s = Settings.parse(TEXT);
        assertEquals(4, s.getInt("workers", 1));
        assertEquals("shop", s.get("name", "?"));
        assertEquals("?", s.get("missing", "?"));
    }

    @Test
    public void emptyConfiguration() {
        assertEquals(-1, Settings.parse("").getInt("timeout", -1));
    }

    @Test
    public void notAnIntegerIsAnError() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Settings.parse(TEXT).getInt("retries", 3));
        assertTrue(e.getMessage(), e.getMessage().contains("retries"));
    }

    @Test
    public void valuesAreTrimmed() {
        Map<String, String> values = new HashMap<>();
        values.put("limit", "  25 ");
        assertEquals(25, new Settings(values).getInt("limit", 0));
    }

    @Test
    public void badLine() {
        assertThrows(IllegalArgumentException.class, () -> Settings.parse("port 9000\n"));
    }
}
