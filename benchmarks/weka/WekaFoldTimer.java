// SPDX-License-Identifier: GPL-3.0-or-later
// Times Weka 3.6's own 10-fold cross-validation (Evaluation.crossValidateModel) of one
// classifier on one ARFF file, run after run in one JVM, so JVM start and file loading are
// excluded. Run 1 is what a fresh Weka process pays (the JIT still compiling); later runs
// are the warmed-up steady state. cpu_seconds: the CPU time of the thread that ran the
// cross-validation (the JIT's and the collector's threads left out: the learner's own work).
// Usage: java -cp weka.jar:DIR WekaFoldTimer CLASSIFIER RUNS FOLDS file.arff [-- options]
import weka.classifiers.Classifier;
import weka.classifiers.Evaluation;
import weka.core.Instances;
import java.io.BufferedReader;
import java.io.FileReader;
import java.util.ArrayList;
import java.util.Random;

public class WekaFoldTimer {
    public static void main(String[] args) throws Exception {
        String cls = args[0];
        int runs = Integer.parseInt(args[1]);
        int folds = Integer.parseInt(args[2]);
        Instances data = new Instances(new BufferedReader(new FileReader(args[3])));
        data.setClassIndex(data.numAttributes() - 1);
        ArrayList<String> opts = new ArrayList<String>();
        for (int i = 5; i < args.length; i++) opts.add(args[i]);
        java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
        System.out.println("run,seconds,pct_correct,cpu_seconds");
        for (int r = 1; r <= runs; r++) {
            Classifier c = Classifier.forName(cls, opts.toArray(new String[0]));
            long t0 = System.nanoTime();
            long c0 = bean.getCurrentThreadCpuTime();
            Evaluation ev = new Evaluation(data);
            ev.crossValidateModel(c, data, folds, new Random(r));
            double secs = (System.nanoTime() - t0) / 1e9;
            double cpu = (bean.getCurrentThreadCpuTime() - c0) / 1e9;
            System.out.println(r + "," + secs + "," + ev.pctCorrect() + "," + cpu);
        }
    }
}
