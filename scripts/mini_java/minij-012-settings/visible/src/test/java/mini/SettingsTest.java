package mini;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class SettingsTest {
    @Test
    public void setValue() {
        assertEquals(9000, Settings.parse("port = 9000\n").getInt("port", 8080));
    }

    @Test
    public void missingKeyGivesTheDefault() {
        assertEquals(8080, Settings.parse("host = example.org\n").getInt("port", 8080));
    }
}
