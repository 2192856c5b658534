// Run on MPI Ranks in the real editor window (docs/scale-out.md, "In the editor"): on the three-rank
// sample the Run menu's item runs the graph under mpirun, and the run panel ends with one row per rank,
// finished, and the outputs of every rank; on a graph without partitions the item is greyed and
// choosing it says why. Skipped in a build without MPI or without mpirun (the item says so). Following
// a file that is not telemetry shows what is wrong with it.
import QtQuick
import QtTest

TestCase {
    id: test
    name: "MpiRun"
    when: windowShown

    property var window: null
    property var document: window ? window.graphDocument : null
    property var run: window ? window.runController : null

    function init() {
        const component = Qt.createComponent("qrc:/qt/qml/Isochron/Ui/qml/Main.qml")
        verify(component.status === Component.Ready, component.errorString())
        window = component.createObject(null, {width: 1400, height: 900})
        verify(window)
        window.openFile(sourceDirectory + "/samples/scale-out-three-ranks.isograph.json")
        waitForRendering(window.contentItem)
    }
    function cleanup() {
        run.stopAll()
        tryVerify(() => !run.running, 30000)
        document.newGraph()
        window.close()
        window.destroy()
        window = null
    }

    // Open the Run menu and click the item `name` in it.
    function chooseRunMenuItem(name) {
        const bar = window.menuBar
        let menu = null
        for (let m = 0; m < bar.count; ++m) {
            if (bar.menuAt(m).title === qsTr("&Run")) menu = bar.menuAt(m)
        }
        verify(menu)
        menu.open()
        tryVerify(() => menu.opened)
        const item = findChild(menu, name)
        verify(item, name)
        mouseClick(item)
        return item
    }

    function test_runOnRanksShowsEveryRank() {
        if (window.ranksRefusal.length) skip(window.ranksRefusal)
        // The sinks write into the test's folder, and 2 s of clicks are enough.
        compare(document.setParameter("recording", "path", temporaryDirectory + "/mpi-run.wav"), "")
        compare(document.setParameter("onset-log", "path", temporaryDirectory + "/mpi-onsets.jsonl"), "")
        compare(document.setParameter("level-log", "path", temporaryDirectory + "/mpi-level.jsonl"), "")
        compare(document.setParameter("clicks", "duration", 2), "")
        const item = chooseRunMenuItem("ranksMenuItem")
        compare(item.text, "Run on MPI &Ranks (3)")
        tryVerify(() => run.state === "finished" || run.state === "failed", 120000, "the mpirun job ends")
        compare(run.state, "finished", run.message)
        compare(run.schedulerText, "mpirun -np 3")
        verify(run.followedFile.endsWith("telemetry.rank0.jsonl"))
        compare(window.bottomTab, 0)  // the live plots
        const rows = findChild(window, "rankRows")
        verify(rows.visible)
        for (let rank = 0; rank < 3; ++rank) {
            const row = findChild(rows, "rankRow" + rank)  // a Repeater's rows are found among visual children only
            verify(row, "a row for rank " + rank)
            verify(row.text.startsWith("rank " + rank + "  finished  "), row.text)
        }
        ranksTableShowsWhole(rows)
        for (const output of ["recording", "onset-log", "level-log", "frames"]) {
            verify(run.telemetry.outputs.indexOf(output) >= 0, output + " (rank 2) among the outputs")
            verify(run.telemetry.latest("output/" + output + "/items") > 0, output + " reached")
        }
        verify(run.telemetry.nodes.indexOf("highpass") >= 0, "rank 1's nodes among the operators")
    }

    // Every cell of the ranks' table shows whole at the window's size, within the table.
    function ranksTableShowsWhole(rows) {
        for (let rank = 0; rank < 3; ++rank) {
            const row = findChild(rows, "rankRow" + rank)
            for (let column = 0; column < 5; ++column) {
                const cell = findChild(row, "rankCell" + column)
                verify(cell, "rank " + rank + ", column " + column)
                verify(!cell.truncated, "rank " + rank + ": '" + cell.text + "' is cut")
            }
            verify(row.width <= rows.width, "rank " + rank + "'s row (" + row.width + " px) is wider than its table (" + rows.width + " px)")
        }
    }

    // Stop sends SIGUSR2 to mpirun, which passes it to every rank at once: the run ends stopped with
    // every rank, and the banner is no warning: Open MPI's report of the ranks' exit 140 ("non-zero
    // status") is not shown, what the ranks said (the recording cut short) is, beside a stop sign.
    function test_stopEndsEveryRankWithSigusr2() {
        if (window.ranksRefusal.length) skip(window.ranksRefusal)
        compare(document.setParameter("recording", "path", temporaryDirectory + "/mpi-stop.wav"), "")
        compare(document.setParameter("onset-log", "path", temporaryDirectory + "/mpi-stop-onsets.jsonl"), "")
        compare(document.setParameter("level-log", "path", temporaryDirectory + "/mpi-stop-level.jsonl"), "")
        compare(document.setParameter("clicks", "duration", 3600), "")
        compare(document.setParameter("clicks", "pace", 1), "")
        chooseRunMenuItem("ranksMenuItem")
        // Every rank runs: rank 0's telemetry holds each rank's snapshots.
        tryVerify(() => run.state === "running" && run.telemetry.nodes.indexOf("highpass") >= 0 && run.telemetry.nodes.indexOf("recording") >= 0,
                  60000, "every rank runs")
        // And the recording has samples: a Stop before its first leaves no recording to be cut short.
        tryVerify(() => run.telemetry.latest("output/recording/items") > 0, 60000, "the recording has samples")
        run.stop()
        tryVerify(() => run.state === "stopped" || run.state === "failed", 60000, "the mpirun job ends")
        compare(run.state, "stopped", run.message)
        verify(run.message.endsWith("every rank ended its run at the Stop (SIGUSR2)"), run.message)
        ranksTableShowsWhole(findChild(window, "rankRows"))
        const notices = run.notices.join("\n")
        verify(!notices.includes("non-zero") && !notices.includes("stopped by signal"), notices)
        verify(notices.includes("[rank 2] warning: node 'recording': the recording was cut short"), notices)
        verify(run.notices[0].startsWith("Stopped as asked: Stop sent SIGUSR2 to mpirun"), notices)
        const bar = findChild(window.graphCanvas, "noticeBar")
        tryVerify(() => bar.visible)
        verify(!bar.warns)
        compare(findChild(bar, "noticeIcon").name, "stop")
    }

    // A JSON-lines file that is not telemetry (a sample's event log), chosen in the real dialog:
    // an error box naming the file, the line and the field (this once corrupted the heap).
    function test_followingAnEventLogSaysWhatIsWrong() {
        chooseRunMenuItem("followMenuItem")
        let picker = null
        tryVerify(() => { picker = findAll(window.contentItem.parent, "pickerName").find(p => p.activeFocus) || null; return picker !== null }, 20000, "the name field has the keys")
        const path = sourceDirectory + "/samples/data/doors-east.jsonl"
        picker.text = path
        keyClick(Qt.Key_Return)
        const box = findChild(window, "errorBox")
        tryVerify(() => box.opened, 20000, "an error box")
        compare(run.state, "failed")
        compare(box.text, "Cannot follow the telemetry file")
        compare(box.informativeText, path + ":1: line: has no \"format\"")
        box.close()
    }

    function findAll(item, name, found) {
        found = found || []
        if (!item) return found
        if (item.objectName === name) found.push(item)
        const children = item.children || []
        for (let i = 0; i < children.length; ++i) findAll(children[i], name, found)
        return found
    }

    function test_withoutPartitionsTheItemSaysWhy() {
        document.newGraph()
        document.addNode("generators.signal_generator", 0, 0)
        verify(window.ranksRefusal.length > 0)
        const item = chooseRunMenuItem("ranksMenuItem")
        verify(item.unavailable)
        const box = findChild(window, "infoBox")
        tryVerify(() => box.opened)
        compare(box.informativeText, window.ranksRefusal)
        verify(box.informativeText.startsWith("No node has a partition"), box.informativeText)
        compare(run.state, "idle")
        box.close()
    }
}
